// The demo's word lists by part of speech, everyday words first and rare ones last (from a marker word on).

const list = (text: string): string[] => text.trim().split(/\s+/);

// "a/b" gives an irregular form explicitly; the rest follow the regular English rules in vocabulary.ts.
export const NOUNS = list(`
  team community project meeting event talk workshop session idea question answer feedback/feedback update release
  feature bug fix issue plan roadmap design prototype demo slide deck video recording note doc guide tutorial article
  post thread channel message reply comment reaction link resource tool library framework service server database
  query schema table index migration deployment pipeline build test script command terminal editor repo branch commit
  review change version dashboard report metric chart graph spreadsheet survey poll vote result goal milestone deadline
  sprint retro standup kickoff launch week month quarter year weekend morning afternoon evening night day hour minute
  person/people friend colleague mentor mentee member moderator organizer speaker host guest volunteer newcomer
  founder engineer designer writer researcher manager recruiter student teacher parent neighbor customer user client
  company startup agency studio lab office city country conference meetup hackathon summit panel keynote podcast
  newsletter blog website app browser phone laptop keyboard monitor camera microphone headset desk chair coffee tea
  lunch dinner snack pizza book chapter story course lesson class exercise example template checklist workflow process
  habit routine schedule calendar invite agenda topic theme track room venue stage booth badge sticker shirt swag/swag
  problem solution approach strategy tradeoff decision assumption experiment hypothesis/hypotheses insight pattern principle
  rule policy guideline standard convention style format layout component button form field input modal menu page
  screen view theme icon logo font color palette grid card list item label tag filter search sort setting option
  account profile password login session/sessions token permission role group workspace folder file image photo
  upload download backup archive export import integration plugin extension api endpoint request response error
  warning log trace alert incident outage fallback timeout retry cache queue worker job task ticket backlog estimate
  budget cost price invoice contract offer interview resume portfolio salary benefit job career skill strength
  weakness opportunity risk challenge lesson/lessons win mistake surprise reminder announcement welcome introduction
  thanks/thanks congrats/congrats shoutout highlight recap summary draft outline proposal spec rfc memo wiki handbook
  onboarding/onboarding offboarding/offboarding culture value mission vision brand voice tone audience reader listener viewer follower fan
  garden kitchen recipe bike trail hike park beach river mountain island train flight airport hotel map ticket
  weather/weather rain/rain snow/snow sun cloud storm wind season spring summer autumn winter holiday birthday party game puzzle
  song album playlist concert movie show series/series episode documentary museum gallery exhibit sketch painting drawing
  notebook pen pencil whiteboard sticky wall window door bridge tower street neighborhood market shop cafe bakery
  algorithm function variable parameter argument type interface class/classes module package dependency compiler
  runtime container cluster node network protocol packet socket thread/threads process/processes memory disk
  benchmark profiler flamegraph latency throughput bottleneck regression refactor abstraction boundary contract
  invariant edge/edges corner/corners constraint trigger webhook event/events payload header cookie domain certificate
  key secret vault policy/policies audit compliance/compliance privacy/privacy security/security accessibility/accessibility localization/localization translation locale
  keyboard/keyboards shortcut macro snippet gist diff patch hunk linter formatter bundler transpiler polyfill shim
  dataset model notebook/notebooks prompt embedding vector cluster/clusters sample label/labels annotation pipeline/pipelines
  advice/advice agreement anniversary application appointment architecture assignment attention/attention backpack
  balcony bandwidth/bandwidth battery blanket blueprint board bookshelf/bookshelves bottle breakfast bucket bundle cabinet
  campaign candle canvas capacity caption category ceremony champion chocolate circle classroom cohort collection
  committee concept conversation copy corridor couch council coupon craft crowd curriculum cushion cycle delivery
  department detail device diagram dialogue dictionary difference direction discount discussion dish district donation
  dream driver election element elevator emergency energy engine envelope environment evidence/evidence exhibition
  experience expert factory fair festival figure forum fountain fragment freezer frontier fundraiser furniture/furniture
  gadget gap garage gateway generation gift glossary guitar hallway harvest headline heater highway homework/homework
  horizon household hurdle illustration improvement inbox ingredient initiative inspiration instrument intern inventory
  invitation jacket journal journey judge juice kettle kiosk ladder landmark language lantern lecture ledger legend
  letter level license lifecycle limit lobby luggage/luggage magazine mailbox manual margin marathon meal medal merchant
  method mirror moment momentum/momentum mug mural narrative negotiation nickname notification number objective
  observation orchestra outcome outlet oven paragraph partner passport pathway pavement pillow pitch placeholder
  platform playground podium poster pottery/pottery presentation printer priority quality quote radio railway ranking
  receipt reference reflection reunion rhythm ritual robot rocket roof sandbox satellite scenario scholarship scoreboard
  sculpture sentence shelter signal signature simulation skyline slogan smartphone soundtrack souvenir spotlight stadium
  statement statistic storage/storage submission subway suitcase supplier symbol symptom syllabus tablet tent territory
  textbook threshold timeline toolkit tournament tradition trophy tunnel umbrella uniform universe vacation vehicle
  village vinyl vocabulary volume voucher walkthrough wallet warehouse webinar whistle wishlist workbench workload zone
  palimpsest zeitgeist quagmire conundrum serendipity/serendipity epiphany idiosyncrasy juxtaposition leitmotif lodestar
  maelstrom microcosm nadir zenith paradigm paragon penumbra periphery plethora quandary rubric shibboleth syzygy
  tessellation vernacular zephyr bellwether bricolage cacophony confluence cornucopia crucible denouement dichotomy
  farrago gestalt heuristic hinterland hubris/hubris imbroglio kaleidoscope labyrinth lacuna mnemonic nomenclature obelisk
  omnibus palindrome panopticon patina pastiche petrichor/petrichor polyglot portmanteau provenance quiddity quincunx reverie
  sobriquet soliloquy/soliloquies talisman tautology threnody vestige wanderlust/wanderlust anachronism apotheosis/apotheoses cartography chimera
  colophon compendium coterie cynosure entropy/entropy epitome flotsam/flotsam fulcrum idyll inkling kerfuffle limerick
  miasma nebula oeuvre oxymoron parallax phalanx quasar rhapsody sonnet tableau/tableaux verisimilitude/verisimilitude whirligig
  ziggurat zugzwang abacus albatross archipelago armada asterisk aurora avalanche bazaar bonanza cadence carousel
  catacomb caveat citadel crescendo dirigible doppelganger dynamo enigma fjord gazebo geyser glockenspiel gondola
  harbinger hieroglyph hologram isthmus juggernaut kiln knapsack lagoon lanyard lighthouse marmalade/marmalade meridian mosaic
  nomad oasis/oases origami pagoda papyrus paradox pendulum periscope phoenix pinnacle quill quarry rampart scaffold
  sextant spindle stalactite sundial tapestry telescope tundra typewriter vortex windmill yurt zeppelin
  aphorism arabesque bagatelle cantilever chrysalis codex/codices conclave demiurge diaspora dirge ennui/ennui equinox
  fandango filigree gambit gargoyle googolplex halberd hegemony homunculus/homunculi iconoclast jeremiad koan lexicon
  macguffin menagerie minaret monolith nautilus nonpareil obsidian/obsidian panjandrum pantheon perihelion phantasm
  quatrain reliquary sanctum scintilla semaphore simulacrum/simulacra solstice spelunker sphinx stratagem synecdoche
  tchotchke totem trebuchet troubadour ukulele vignette wunderkind xylophone yeoman/yeomen zither
`);

export const VERBS = list(`
  share build/built/building ship/shipped/shipping write/wrote/writing read/read/reading test fix review merge deploy
  launch start finish plan/planned/planning design learn teach/taught/teaching ask answer help join host meet/met/meeting
  organize schedule cancel/cancelled/cancelling move update improve debug/debugged/debugging refactor document explore try
  find/found/finding use reuse measure profile compare choose/chose/choosing decide discuss present record watch listen
  publish draft edit/edited/editing delete rename migrate upgrade install configure run/ran/running stop/stopped/stopping
  restart pause resume wrap/wrapped/wrapping celebrate welcome thank invite introduce recommend suggest propose approve
  reject prioritize estimate track log/logged/logging monitor alert page/paged/paging triage investigate reproduce
  simplify automate integrate connect sync export import restore archive bookmark pin/pinned/pinning tag/tagged/tagging
  mention follow subscribe comment react celebrate prototype sketch mock/mocked/mocking wireframe iterate validate
  interview hire onboard mentor coach support encourage collect gather summarize translate localize polish tweak
  optimize cache benchmark trace inspect lint/linted/linting format/formatted/formatting bundle compile/compiled/compiling package release
  tag/tagged/tagging version pair/paired/pairing brainstorm outline review/reviewed/reviewing celebrate attend
  bring/brought/bringing send/sent/sending make/made/making take/took/taking give/gave/giving get/got/getting see/saw/seeing
  think/thought/thinking feel/felt/feeling keep/kept/keeping leave/left/leaving begin/began/beginning spend/spent/spending
  grow/grew/growing speak/spoke/speaking break/broke/breaking
  accept achieve add adjust admire adopt advise afford agree allow announce apply appreciate argue arrange arrive assign
  assist assume attach attract avoid bake balance borrow bounce brew browse calculate care carry challenge change chase
  check cheer clarify clean clear climb close collaborate combine complain complete confirm consider contribute convert
  cook copy correct count cover crash create cross cycle dance deliver depend describe deserve discover display divide
  doubt dream drift earn embrace enable engage enjoy enter escape evaluate examine exchange expand expect experiment
  explain express extend fail fetch fill filter fold gain generate guess handle hammer hope identify ignore imagine
  impress include increase inform insist inspire intend interrupt invent involve jump kick knock land laugh like limit
  load lock look manage mark match mend miss mix name navigate negotiate notice observe obtain offer open order own
  paint park pass perform persuade pick play please point post practice prefer/preferred/preferring prepare preserve
  pretend print process produce promise protect provide pull push question reach realize receive reduce reflect refuse
  relax rely remember remind remove repair repeat replace report request require rescue respond rest return rinse roll
  rush save search secure select separate serve settle shape shift shout sign skip/skipped/skipping slice smile solve
  sort spark stack stay steer store stream stretch study succeed suffer supply surprise survive switch taste tidy toast
  touch trade train transfer/transferred/transferring travel trust tune turn type unlock unpack upload vanish verify
  visit wait walk wander want warn wash waste wave whisper wish wonder work worry wrangle yawn zoom chat/chatted/chatting
  skim/skimmed/skimming ride/rode/riding swim/swam/swimming drive/drove/driving sing/sang/singing fly/flew/flying
  draw/drew/drawing catch/caught/catching buy/bought/buying sell/sold/selling win/won/winning lose/lost/losing
  forget/forgot/forgetting hold/held/holding lead/led/leading understand/understood/understanding
  extrapolate obfuscate juxtapose ameliorate conflate disambiguate reify memoize transmogrify bikeshed/bikeshedded/bikeshedding
  yak-shave/yak-shaved/yak-shaving grok/grokked/grokking kludge finagle percolate ruminate cogitate hew/hewed/hewing
  palliate recapitulate triangulate vacillate elucidate adjudicate promulgate
`);

export const ADJECTIVES = list(`
  new old great good quick small big simple clear useful helpful friendly open public private local remote online
  weekly monthly daily early late next last first final main better best latest fresh clean messy tricky hard easy
  fast slow stable flaky broken shiny modern legacy internal external shared personal favorite popular common rare
  important urgent optional free paid cheap expensive quiet busy calm cozy curious bold brave careful honest kind warm
  cool happy excited proud grateful tired inspiring surprising interesting boring practical theoretical technical
  visual creative strategic tactical experimental minimal robust brittle elegant clunky verbose concise readable
  accessible inclusive responsive lightweight heavy scalable reliable secure fragile resilient async realtime offline
  hybrid global regional annual quarterly informal formal casual deep shallow wide narrow long short huge tiny rough
  polished raw hidden visible native generic specific flexible strict lazy eager clever silly weird wonderful awesome
  solid decent rocky bumpy smooth sharp blurry bright dark colorful plain fancy handy nifty neat gnarly spicy
  active actual adorable affordable agile alert amazing ambitious ancient annoying anxious automatic available average
  aware awkward basic beautiful beloved brief broad candid capable central certain cheerful chill classic clumsy
  cohesive comfortable compact complete complex confident consistent constant critical crowded crucial cute dedicated
  default delightful dense dependable detailed different difficult digital diligent distinct diverse dynamic efficient
  electric empty endless energetic enormous entire epic essential ethical exact excellent exclusive familiar famous
  fantastic fierce flat fluffy focused foggy foreign fortunate frequent frozen full funny fuzzy gentle genuine giant
  glad gorgeous graceful gradual grand greedy grumpy handmade harmless healthy hilarious historic hopeful humble hungry
  ideal idle immense impressive incredible independent informative innovative instant intense interactive intuitive
  invisible jolly joyful juicy large legal likely literal lively logical lonely loud lovely loyal lucky magic major
  manual massive mature meaningful memorable mental mighty mild minor mobile moderate modest moody muddy mutual
  mysterious natural nervous noisy normal notable novel obscure obvious odd official optimistic ordinary organic
  original outdated overdue patient peaceful perfect pleasant plucky portable positive powerful precious precise pretty
  previous primary productive professional profound prompt proper quirky radical random rapid rational realistic recent
  regular relevant remarkable repetitive rich rigid risky rustic safe scary seamless seasonal secret sensible sensitive
  serious severe shy sincere sleepy sloppy sneaky social soft sophisticated sparse special speedy spontaneous stale
  steady sticky stormy straightforward strange structured stubborn subtle sudden sunny super sweet swift tall tasty
  tender terrible thoughtful tidy timely tough tremendous typical unique universal unusual upbeat upcoming vague
  valuable vast vibrant vintage virtual vital vivid wild wise witty wooden worthy young zany
  ephemeral ineffable laconic loquacious mercurial nebulous obstreperous pellucid perspicacious quixotic recondite
  sanguine serendipitous sesquipedalian supercilious taciturn ubiquitous vociferous zealous halcyon liminal
  numinous crepuscular diaphanous effervescent evanescent gossamer incandescent labyrinthine luminous mellifluous
  opalescent phosphorescent resplendent susurrous tenebrous vermilion winsome apocryphal byzantine chthonic
  anodyne antediluvian bucolic cacophonous capricious cerulean chimerical desultory ebullient egregious esoteric
  fastidious feckless garrulous grandiloquent hirsute iconoclastic impecunious indefatigable inscrutable insouciant
  irascible jejune lachrymose lugubrious magnanimous mendacious nefarious obsequious pedantic peripatetic phlegmatic
  pugnacious recalcitrant sardonic soporific stentorian truculent ultramarine unctuous vituperative
`);

export const ADVERBS = list(`
  really quickly finally actually probably definitely honestly easily slowly carefully clearly mostly nearly
  already always often sometimes rarely usually quietly openly happily gladly briefly roughly mostly simply
  surprisingly reliably gradually eventually immediately regularly properly barely entirely partly mainly
  hopefully ideally obviously seriously totally absolutely genuinely basically literally luckily
  abruptly accidentally anxiously awkwardly boldly brightly calmly casually cheerfully closely constantly correctly
  curiously deeply deliberately directly eagerly effectively efficiently elegantly especially exactly fairly firmly
  formally frankly freely frequently fully generally gently greatly hardly heavily highly instantly largely lightly
  loosely loudly merely naturally neatly normally officially patiently perfectly personally politely precisely rapidly
  readily recently safely seamlessly separately sharply silently smoothly softly steadily strictly strongly suddenly
  thoroughly tightly truly typically warmly widely wisely
  inexorably perfunctorily serendipitously ineffably
  assiduously desultorily lugubriously mellifluously obstreperously sardonically
`);

export const PREPOSITIONS = list(
  'in on for with about during after before across around between into through under over without behind near',
);
export const DETERMINERS = list('the the the this that our your every each their one another');
export const PRONOUNS = list('we you they I');
export const MODALS = list('can should could might will');
export const TIME_WORDS = list('week month sprint quarter Friday Monday Tuesday Thursday weekend');
