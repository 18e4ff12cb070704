// Request and response schemas of search (spec 4.5): the query, and records of either shape with an optional highlight.
import { Type, type Static } from '@sinclair/typebox';
import { PageOf, PageQuery, StringEnum } from '../schemas/common.js';
import { Comment, Post } from '../schemas/post.js';

export const searchTypes = ['post', 'comment'] as const;

export const SearchParams = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: 256,
    description:
      'Words to find, all required; `"a phrase"`, `-excluded` words and `OR` work as in web search. ' +
      'Case, accents and simple inflections (run/running) do not prevent a match. Any other character only separates words.',
    examples: ['welcome guide', '"hot dogs" -mustard', 'café OR coffee'],
  }),
  type: StringEnum(searchTypes, {
    description: 'post: titles (weighted above bodies) and bodies; comment: comment bodies',
  }),
  ...PageQuery,
  highlight: Type.Boolean({
    default: false,
    description: 'Adds `highlight` to each record: its text HTML-escaped, with `<mark>`…`</mark>` around the hits',
  }),
});
export type SearchParams = Static<typeof SearchParams>;

const Highlight = Type.Object({
  highlight: Type.Optional(
    Type.String({
      description:
        'Present when asked for: the matched text (title and body of a post), HTML-escaped, hits in `<mark>`',
    }),
  ),
});

export const PostHit = Type.Intersect([Post, Highlight]);
export type PostHit = Static<typeof PostHit>;
export const CommentHit = Type.Intersect([Comment, Highlight]);
export type CommentHit = Static<typeof CommentHit>;

export const SearchPageResponse = PageOf(
  Type.Union([PostHit, CommentHit], { description: 'A post (type=post) or a comment record (type=comment)' }),
);
