import { Type } from '@sinclair/typebox';
import { PageQuerySchema } from '../../http/common-schemas';

export const SearchParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const SearchQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 512 }),
  ...PageQuerySchema,
});

const ResultType = Type.Union([Type.Literal('page'), Type.Literal('section')]);
const Score = Type.Number({ minimum: 0 });

/** The spec's section fields plus the published `score` and `resultType`. */
export const SearchSectionSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  body: Type.String(),
  score: Score,
  resultType: ResultType,
  urls: Type.Object({ app: Type.String() }),
});

/** The spec's page fields plus the published `description`, `score`, `rank`, `resultType`, `ancestors`. */
export const SearchPageSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  path: Type.String(),
  score: Score,
  rank: Type.Integer({ minimum: 1 }),
  resultType: ResultType,
  sections: Type.Array(SearchSectionSchema),
  ancestors: Type.Array(Type.Object({ title: Type.String() })),
  urls: Type.Object({ app: Type.String() }),
});

/** The spec's `{ id, title, pages }` plus the published `type: 'space'` and `score`. */
export const SearchSpaceSchema = Type.Object({
  type: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  score: Score,
  pages: Type.Array(SearchPageSchema),
});
