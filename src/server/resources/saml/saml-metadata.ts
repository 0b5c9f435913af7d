/** What XML attribute values must not hold raw (`"` closes the value, `<` and `&` are markup). */
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
}

export const SAML_METADATA_CONTENT_TYPE = 'application/samlmetadata+xml; charset=utf-8';

/**
 * This server's SAML 2.0 service-provider metadata for one provider: what an identity provider
 * imports to trust it (its entity ID, and where to post assertions). The addresses are our own
 * generated URLs, escaped all the same because the public URL comes from configuration.
 */
export function serviceProviderMetadata(service: { entityID: string; acsURL: string }): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeAttribute(service.entityID)}">`,
    '  <md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">',
    '    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>',
    `    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escapeAttribute(service.acsURL)}" index="0" isDefault="true"/>`,
    '  </md:SPSSODescriptor>',
    '</md:EntityDescriptor>',
    '',
  ].join('\n');
}
