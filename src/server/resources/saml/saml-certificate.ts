import { X509Certificate } from 'node:crypto';

const PEM_HEADER = /-----BEGIN CERTIFICATE-----/;
const PROBLEM = 'must be an X.509 certificate, PEM or base64 DER';

/**
 * An identity provider hands out its signing certificate as PEM or as the bare base64 of the DER
 * (SAML metadata's `<X509Certificate>`); both are accepted. Returns why it is not a certificate,
 * or undefined when it is one. Node parses it: nothing is hand-rolled here.
 */
export function certificateProblem(text: string): string | undefined {
  const pem = PEM_HEADER.test(text) ? text : asPem(text);
  try {
    const parsed = new X509Certificate(pem);
    return parsed.raw.length > 0 ? undefined : PROBLEM;
  } catch {
    return PROBLEM;
  }
}

function asPem(base64: string): string {
  const body = base64.replace(/\s+/g, '');
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
