// Demo members: names, unique e-mails, chat user ids and avatar URLs, with a few admins and one bot.
import type { ProfileRecord } from '../import/records.js';
import { DAY, wire } from './clock.js';
import { EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES } from './names.js';
import { ChatIds, type Random } from './random.js';
import type { DemoProfile } from './world.js';

export type ProfileLine = ProfileRecord & { kind: 'profile' };

export interface People {
  members: DemoProfile[];
  admins: DemoProfile[];
  bot: DemoProfile;
  records: ProfileLine[];
}

const IMAGE_SIZES = ['1024', '512', '192', '72', '48', '32', '24'] as const;
const IMAGE_BASE = 'https://images.example.com';

/** ASCII for e-mail local parts: "Ayşe" becomes "ayse", "O'Brien" becomes "obrien". */
function asciiLower(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

function emailFor(random: Random, first: string, last: string, taken: Set<string>): string {
  const f = asciiLower(first);
  const l = asciiLower(last);
  const local = random.weighted([
    [`${f}.${l}`, 5],
    [`${f}${l}`, 2],
    [`${f.charAt(0)}${l}`, 2],
    [`${f}_${l}`, 1],
    [f, 1],
  ]);
  const domain = random.skewed(EMAIL_DOMAINS, 1.5);
  let candidate = `${local}@${domain}`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${local}${n}@${domain}`;
  taken.add(candidate);
  // Some people type their address with capitals; Hearth compares e-mails case-insensitively.
  if (random.chance(0.1)) {
    const [local = '', host = ''] = candidate.split('@');
    return `${local.replace(/^[a-z]|\.[a-z]/g, (part) => part.toUpperCase())}@${host}`;
  }
  return candidate;
}

interface Person {
  first: string;
  last: string;
  preferred: string;
  email: string | null;
  isAdmin: boolean;
  isBot: boolean;
}

function profileRecord(
  random: Random,
  person: Person,
  chatIds: ChatIds,
  now: number,
): { profile: DemoProfile; record: ProfileLine } {
  const id = random.uuid();
  const chatUserId = chatIds.next('U0');
  const hasImage = person.isBot || random.chance(0.9);
  const key = random.chars('0123456789abcdef', 16);
  const image = (size: string) => (hasImage ? `${IMAGE_BASE}/avatars/${key}/${size}.jpg` : null);
  const createdAt =
    now - (person.isAdmin || person.isBot ? 700 : 5 + random.next() ** 0.7 * 690) * DAY - random.int(DAY);
  const record: ProfileLine = {
    kind: 'profile',
    profile_id: id,
    created_at: wire(createdAt),
    preferred_name: person.preferred,
    preferred_image_original: image('original'),
    first_name: person.first,
    last_name: person.last,
    email: person.email,
    chat_user_id: chatUserId,
    chat_is_admin: person.isAdmin,
    chat_is_bot: person.isBot,
    chat_first_name: person.first,
    chat_last_name: person.last,
    chat_image_72: hasImage ? `${IMAGE_BASE}/chat/${key}_72.jpg` : null,
    chat_image_original: hasImage ? `${IMAGE_BASE}/chat/${key}_original.jpg` : null,
  };
  for (const size of IMAGE_SIZES) record[`preferred_image_${size}`] = image(size);
  const profile: DemoProfile = {
    id,
    name: person.preferred,
    firstName: person.first,
    chatUserId,
    image72: image('72'),
    isAdmin: person.isAdmin,
    isBot: person.isBot,
  };
  return { profile, record };
}

/** `count` profiles in all: `admins` of them admins, one of them the community's bot. */
export function buildPeople(random: Random, count: number, admins: number, now: number): People {
  const chatIds = new ChatIds(random.fork('chat-users'));
  const emails = new Set<string>();
  const names = new Set<string>();
  const people: People['members'] = [];
  const records: ProfileLine[] = [];
  const bot = profileRecord(
    random,
    { first: 'Hearth', last: 'Bot', preferred: 'Hearth Bot', email: null, isAdmin: false, isBot: true },
    chatIds,
    now,
  );
  records.push(bot.record);
  for (let i = 0; i < count - 1; i++) {
    let first = random.pick(FIRST_NAMES);
    let last = random.pick(LAST_NAMES);
    // Small communities read better without two people of one name; large ones have them anyway.
    for (let tries = 0; tries < 20 && names.has(`${first} ${last}`); tries++) {
      first = random.pick(FIRST_NAMES);
      last = random.pick(LAST_NAMES);
    }
    names.add(`${first} ${last}`);
    const preferred = random.weighted([
      [`${first} ${last}`, 6],
      [first, 3],
      [`${first} ${last.charAt(0)}.`, 1],
    ]);
    const person: Person = {
      first,
      last,
      preferred,
      email: emailFor(random, first, last, emails),
      isAdmin: i < admins,
      isBot: false,
    };
    const made = profileRecord(random, person, chatIds, now);
    people.push(made.profile);
    records.push(made.record);
  }
  return { members: people, admins: people.filter((p) => p.isAdmin), bot: bot.profile, records };
}
