import { Type } from '@sinclair/typebox';
import { ListSchema, PageQuerySchema } from '../../http/common-schemas';
import { SingleLineText } from '../../http/text-schemas';
import { Id } from './site-schema';

export const ShareLinkParams = Type.Object({ organizationId: Id, siteId: Id, shareLinkId: Id });
export const ListShareLinksQuery = Type.Object(PageQuerySchema);

export const ShareLinkSchema = Type.Object({
  object: Type.Literal('share-link'),
  id: Type.String(),
  createdAt: Type.String(),
  name: Type.String(),
  active: Type.Boolean(),
  urls: Type.Object({ published: Type.String() }),
});
export const ShareLinkListSchema = ListSchema(ShareLinkSchema);

const Name = SingleLineText({ maxLength: 50 });
export const CreateShareLinkBody = Type.Object({ name: Name });
export const UpdateShareLinkBody = Type.Object(
  { active: Type.Optional(Type.Boolean()), name: Type.Optional(Name) },
  { minProperties: 1 },
);
