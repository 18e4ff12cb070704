// What a change names for its fragments to be rendered again: ids per kind of record.
export interface Touched {
  profiles?: Iterable<string>;
  feeds?: Iterable<string>;
  tags?: Iterable<string>;
  events?: Iterable<string>;
  posts?: Iterable<string>;
}
