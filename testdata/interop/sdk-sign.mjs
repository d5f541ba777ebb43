// Signs agent cards with the official A2A JS SDK (generateAgentCardSignature),
// for the reverse interop test: agentcards verify must accept them.
// Usage: node sdk-sign.mjs OUT_DIR
// Writes OUT_DIR/jwks.json and OUT_DIR/<name>.json for each card below.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generateAgentCardSignature } from '@a2a-js/sdk';
import * as jose from 'jose';

const out = process.argv[2];
mkdirSync(out, { recursive: true });

// A card already in normal form: the SDK's canonical form is strict JCS.
const normal = {
  name: 'SDK-signed agent',
  description: 'Signed by @a2a-js/sdk generateAgentCardSignature — “quoted”, naïve, 東京.',
  version: '2.0.0',
  supportedInterfaces: [{ url: 'https://sdk.example.com/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  provider: { organization: 'SDK Co.', url: 'https://sdk.example.com' },
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['application/json'],
  securitySchemes: { oauth: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://sdk.example.com/token', scopes: { read: 'Read' } } } } } },
  securityRequirements: [{ schemes: { oauth: { list: ['read'] } } }],
  skills: [{ id: 's1', name: 'Skill', description: 'Does it.', tags: ['demo'], examples: ['Do it'] }],
};

// A card the SDK canonicalizes differently from strict JCS, with nothing
// but empty values outside its projection: an empty tenant,
// required: false.
const loose = structuredClone(normal);
loose.name = 'SDK-signed loose agent';
loose.supportedInterfaces[0].tenant = '';
loose.capabilities.extensions = [{ uri: 'https://sdk.example.com/ext', required: false }];

// The same with a scope-less requirement, which the SDK signs without: an
// alternative way in that no signature covers, so verify refuses it.
const scopeless = structuredClone(loose);
scopeless.securitySchemes.key = { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } };
scopeless.securityRequirements.push({ schemes: { key: { list: [] } } });

// The same with a member outside the v1.0 schema: the SDK signs without it,
// so no signature covers it and agentcards verify must refuse the card.
const vendor = structuredClone(loose);
vendor.x_vendor = { note: 'not in the v1.0 schema' };

const jwks = { keys: [] };
async function signer(alg, kid) {
  const opts = alg === 'ES256' ? { extractable: true } : { crv: 'Ed25519', extractable: true };
  const { publicKey, privateKey } = await jose.generateKeyPair(alg === 'ES256' ? 'ES256' : 'EdDSA', opts);
  const jwk = await jose.exportJWK(publicKey);
  jwks.keys.push({ ...jwk, kid, alg, use: 'sig' });
  return generateAgentCardSignature(privateKey, { alg, kid, typ: 'JOSE' });
}

const cards = {
  'es256-normal': [normal, await signer('ES256', 'sdk-es256')],
  'eddsa-normal': [normal, await signer('EdDSA', 'sdk-eddsa')],
  'ed25519-normal': [normal, await signer('Ed25519', 'sdk-ed25519')],
};
cards['es256-loose'] = [loose, cards['es256-normal'][1]];
cards['eddsa-loose'] = [loose, cards['eddsa-normal'][1]];
cards['es256-vendor'] = [vendor, cards['es256-normal'][1]];
cards['es256-scopeless'] = [scopeless, cards['es256-normal'][1]];

for (const [name, [card, sign]] of Object.entries(cards)) {
  writeFileSync(join(out, name + '.json'), JSON.stringify(await sign(card), null, 2));
}
writeFileSync(join(out, 'jwks.json'), JSON.stringify(jwks, null, 2));
