// Proper nouns and fixed phrases for the demo: people, places, topics, tools, companies, emoji and code snippets.

// '_' stands for a space inside one entry.
const list = (text: string): string[] =>
  [...new Set(text.trim().split(/\s+/))].map((entry) => entry.replace(/_/g, ' '));
const lines = (text: string): string[] =>
  text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

export const FIRST_NAMES = list(`
  Ada Grace Alan Maya Liam Noah Emma Olivia Sofia Mateo Lucas Amara Chidi Zara Yuki Hiro Aiko Kenji Mei Wei Li Jun
  Priya Arjun Ananya Rohan Fatima Omar Layla Yusuf Leila Amir Ingrid Lars Freya Nils Astrid Sven Hannah Jonas Lena
  Felix Clara Mila Anton Elif Can Deniz Ayşe Chloé Théo Léa Hugo Inès Marco Giulia Luca Chiara Elena Pablo Lucía
  Diego Valentina Camila Santiago Isabela Thiago Ana João Beatriz Kofi Ama Kwame Efua Ngozi Tunde Aisha Sipho Thandi
  Mateus Oksana Dmytro Katya Pavel Zofia Jakub Tomás Niamh Siobhan Cian Aoife Rhys Seren Ewan Isla Mason Ava Ethan
  Harper Elijah Aria James Nora Benjamin Zoe Samuel Ruby Daniel Ivy Gabriel Hazel Julian Aurora Theo Sage River Kai
  Rowan Quinn Avery Jordan Taylor Morgan Casey Riley Jamie Alex Sam Robin Dana Ari Noor Tariq Hana Minh Linh Thao An
  Bao Sun-hee Min-jun Ji-woo Seo-yeon Raj Sanjay Deepa Kavya Ibrahim Mariam Selin Emre Tova Eitan Yael Malak Sina
`);

export const LAST_NAMES = list(`
  Lovelace Hopper Turing Okafor Nakamura Tanaka Sato Suzuki Kim Park Lee Chen Wang Zhang Liu Nguyen Tran Pham Patel
  Sharma Gupta Iyer Reddy Khan Hussain Ahmed Haddad Rahman Al-Sayed Andersson Johansson Nilsson Larsen Hansen Berg
  Müller Schmidt Schneider Fischer Weber Becker Wagner Hoffmann Dubois Martin Bernard Lefèvre Moreau Rossi Russo
  Bianchi Romano Ricci García Fernández López Martínez González Rodríguez Sánchez Pérez Silva Santos Oliveira Costa
  Pereira Mensah Owusu Boateng Adeyemi Okonkwo Balogun Dlamini Nkosi Kowalski Nowak Wiśniewski Kovalenko Shevchenko
  Ivanova Novak Horvat O'Brien Murphy Kelly Walsh Byrne Jones Williams Davies Evans Thomas Smith Johnson Brown Taylor
  Miller Wilson Moore Anderson Jackson White Harris Clark Lewis Walker Young Allen Wright Scott Green Baker Adams
  Nelson Hill Campbell Mitchell Roberts Carter Phillips Turner Parker Collins Edwards Stewart Morris Murphy Cook
  Rogers Reed Bailey Cooper Richardson Cox Howard Ward Torres Peterson Gray Ramirez Watson Brooks Kelly Sanders
  Price Bennett Wood Barnes Ross Henderson Coleman Jenkins Perry Powell Long Patterson Hughes Flores Washington
  Cohen Levi Friedman Yilmaz Demir Kaya Şahin Papadopoulos Georgiou Virtanen Korhonen Jensen Nielsen de_Vries Jansen
`);

export const CITIES = lines(`
  Lisbon
  Berlin
  Tokyo
  Sydney
  Nairobi
  Lagos
  São Paulo
  Mexico City
  Toronto
  Vancouver
  Seattle
  San Francisco
  Los Angeles
  Austin
  Chicago
  New York
  Boston
  London
  Dublin
  Amsterdam
  Paris
  Barcelona
  Copenhagen
  Stockholm
  Helsinki
  Warsaw
  Kyiv
  Istanbul
  Tel Aviv
  Bangalore
  Singapore
  Seoul
  Melbourne
  Auckland
  Cape Town
  Buenos Aires
  Montréal
  Zürich
  Vienna
  Prague
`);

export const TOPICS = lines(`
  TypeScript
  Rust
  Go
  Python
  PostgreSQL
  SQLite
  Kubernetes
  observability
  accessibility
  design systems
  user research
  product management
  community building
  open source maintenance
  technical writing
  developer relations
  machine learning
  data engineering
  web performance
  API design
  testing strategy
  incident response
  career growth
  public speaking
  remote work
  mentorship
  hiring
  pricing
  growth experiments
  security reviews
  static site generators
  CSS layout
  React Server Components
  WebAssembly
  edge computing
  event sourcing
  search relevance
  internationalization
  mobile onboarding
  burnout prevention
`);

export const TOOLS = list(`
  Figma Notion Linear GitHub GitLab VS_Code Neovim Docker Postgres Grafana Sentry Terraform Vercel Netlify Storybook
  Vitest Playwright Fastify Kysely Vite Astro Svelte Jupyter Airflow dbt Obsidian Miro Loom Zoom Excalidraw
`);

export const COMPANIES = lines(`
  Acme Corp
  Globex
  Initech
  Northwind Traders
  Contoso
  Fabrikam
  Tailspin Toys
  Lumen Labs
  Bluebird Analytics
  Pinecone Works
  Harbor & Finch
  Kestrel Health
  Orbital Foods
  Quarry Studio
`);

export const ROLES = lines(`
  Senior Frontend Engineer
  Staff Backend Engineer
  Product Designer
  Developer Advocate
  Data Scientist
  Community Manager
  Engineering Manager
  UX Researcher
  Technical Writer
  Platform Engineer
  Product Manager
  Site Reliability Engineer
`);

export const VENUES = lines(`
  The Workshop Loft
  Library Annex, Room 2
  Harbor Co-working
  Fabrikam HQ, 4th floor
  Cafe Lumen
  Community Hall
  Brick Lane Studios
  Makerspace North
`);

export const EMAIL_DOMAINS = list(
  'example.com example.org example.net mail.example.com hearth.example fastmail.example',
);

/** Standard emoji, with the chat product's codepoint notation. */
export const EMOJI: readonly (readonly [string, string])[] = [
  ['tada', '1f389'],
  ['wave', '1f44b'],
  ['rocket', '1f680'],
  ['heart', '2764-fe0f'],
  ['fire', '1f525'],
  ['eyes', '1f440'],
  ['raised_hands', '1f64c'],
  ['sparkles', '2728'],
  ['+1', '1f44d'],
  ['pray', '1f64f'],
  ['coffee', '2615'],
  ['bulb', '1f4a1'],
  ['calendar', '1f4c5'],
  ['white_check_mark', '2705'],
  ['joy', '1f602'],
  ['muscle', '1f4aa'],
  ['books', '1f4da'],
  ['pizza', '1f355'],
  ['flag-jp', '1f1ef-1f1f5'],
  ['flag-de', '1f1e9-1f1ea'],
];

/** Workspace-specific emoji: references name these, so they carry a URL instead of codepoints. */
export const CUSTOM_EMOJI = list('partyparrot shipit lgtm hearth-flame this-is-fine blobwave catjam meow_heart');

export const CODE_SNIPPETS = lines(`
  npm install --save-dev vitest
  SELECT id, title FROM posts WHERE feed_id = $1 ORDER BY created_at DESC LIMIT 20;
  git rebase -i HEAD~3
  docker compose up -d db
  const data = await fetch(url).then((response) => response.json());
  kubectl rollout restart deployment/api
  EXPLAIN ANALYZE SELECT count(*) FROM comments WHERE post_id = 'abc123';
  curl -H "Authorization: Bearer $TOKEN" https://api.example.com/admin/v0/posts/abc
`);

const SYLLABLES = list(
  'zor van quil mar bel tik nox ash kai ren lum dra fen gal hex io jun kel mo nyx or pax ryn sol tor umb vex wyn zel',
);

/** A made-up project name from a space of ~27,000: the long tail that makes a search term rare. */
export function codename(pick: (size: number) => number, parts: number): string {
  let name = '';
  for (let i = 0; i < parts; i++) name += SYLLABLES[pick(SYLLABLES.length)] ?? '';
  return name.charAt(0).toUpperCase() + name.slice(1);
}
