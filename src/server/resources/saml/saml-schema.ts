import { Type } from '@sinclair/typebox';
import { ListSchema, NullableRoleSchema, PageQuerySchema } from '../../http/common-schemas';
import { HTTP_URL_PATTERN, MultilineText, SingleLineText } from '../../http/text-schemas';
import { StringEnum } from '../members/string-enum';
import { TeamSchema } from '../teams/team-schema';

/** The spec's limits (Limits table, "SAML provider"). */
export const SAML_LIMITS = {
  label: 30,
  entityID: 1024,
  certificate: 10_000,
  ssoURL: 2048,
} as const;

/**
 * `active` once the identity provider is fully described (sign-in URL, entity ID, certificate),
 * `pending` before: the published API's status values.
 */
export const SAML_STATUSES = ['active', 'pending'] as const;
export type SamlStatus = (typeof SAML_STATUSES)[number];

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const OrgParams = Type.Object({ organizationId: Id });
export const SamlProviderParams = Type.Object({ organizationId: Id, samlProviderId: Id });
export const SamlMetadataParams = Type.Object({ samlProviderId: Id });
export const ListSamlProvidersQuery = Type.Object(PageQuerySchema);

export const SamlProviderSchema = Type.Object({
  object: Type.Literal('saml-provider'),
  id: Type.String(),
  label: Type.String(),
  ssoURL: Type.String(),
  entityID: Type.String(),
  certificate: Type.String(),
  defaultTeam: Type.Optional(TeamSchema),
  defaultRole: NullableRoleSchema,
  createdAt: Type.String(),
  status: StringEnum(SAML_STATUSES),
  service: Type.Object({
    acsURL: Type.String(),
    startURL: Type.String(),
    entityID: Type.String(),
  }),
  urls: Type.Object({ location: Type.String() }),
});

export const SamlProviderListSchema = ListSchema(SamlProviderSchema);

export const SsoLoginInfoSchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  startURL: Type.String(),
});
export const SsoLoginInfoListSchema = Type.Object({ items: Type.Array(SsoLoginInfoSchema) });

/** The identity provider's sign-in address: an absolute http(s) URL. */
const SsoUrl = Type.String({
  format: 'uri',
  maxLength: SAML_LIMITS.ssoURL,
  pattern: HTTP_URL_PATTERN,
});

const samlFields = {
  label: SingleLineText({ minLength: 1, maxLength: SAML_LIMITS.label }),
  // An empty entity ID or certificate means "not given yet" (the provider stays pending).
  entityID: Type.Optional(SingleLineText({ maxLength: SAML_LIMITS.entityID })),
  // PEM spans lines; checkCertificate then makes sure it really is an X.509 certificate.
  certificate: Type.Optional(MultilineText({ maxLength: SAML_LIMITS.certificate })),
  ssoURL: Type.Optional(SsoUrl),
  defaultTeam: Type.Optional(Id),
  defaultRole: Type.Optional(NullableRoleSchema),
};

export const CreateSamlProviderBody = Type.Object(samlFields);

export const UpdateSamlProviderBody = Type.Object({
  ...samlFields,
  label: Type.Optional(samlFields.label),
});

export type SamlProviderFields = {
  label?: string | undefined;
  entityID?: string | undefined;
  certificate?: string | undefined;
  ssoURL?: string | undefined;
  defaultTeam?: string | undefined;
  defaultRole?: (typeof NullableRoleSchema)['static'] | undefined;
};
