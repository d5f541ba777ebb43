// Checks a built agentcards site with independent, real components:
//   - the official A2A JS SDK (@a2a-js/sdk verifyAgentCardSignature and
//     canonicalizeAgentCard) on every agent-card.json,
//   - a strict verifier: RFC 8785 by the `canonicalize` package and JWS by
//     `jose`, on every agent-card.json and agent.json,
//   - the A2A v0.3.0 JSON Schema (ajv) on every agent.json.
// Usage: node check.mjs SITE_DIR JKU SCHEMA_FILE
// Prints one JSON object per card file, then exits 0; the Go test judges.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { verifyAgentCardSignature, canonicalizeAgentCard } from '@a2a-js/sdk';
import canonicalize from 'canonicalize';
import * as jose from 'jose';
import Ajv from 'ajv';

const [siteDir, expectedJku, schemaFile] = process.argv.slice(2);
const jwks = JSON.parse(readFileSync(join(siteDir, '.well-known', 'jwks.json'), 'utf8'));
const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema(schema, 'a2a-v0.3.0');
const validateV03 = ajv.getSchema('a2a-v0.3.0#/definitions/AgentCard');

// Silence the SDK's per-signature debug lines; the result is what counts.
console.debug = () => {};

function findKey(kid) {
  const k = jwks.keys.find((k) => k.kid === kid);
  if (!k) throw new Error(`kid ${kid} not in jwks.json`);
  return k;
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name === 'agent-card.json' || name === 'agent.json') out.push(p);
  }
  return out;
}

// Strict: every signature checked over RFC 8785 of the card minus signatures.
async function strictVerify(card) {
  const { signatures, ...rest } = card;
  const payload = jose.base64url.encode(new TextEncoder().encode(canonicalize(rest)));
  const verified = [];
  for (const s of signatures ?? []) {
    try {
      const header = jose.decodeProtectedHeader(s);
      const jwk = findKey(header.kid);
      if (jwk.alg !== header.alg) throw new Error('alg mismatch');
      const key = await jose.importJWK(jwk, header.alg);
      await jose.flattenedVerify({ payload, protected: s.protected, signature: s.signature }, key, {
        algorithms: ['EdDSA', 'Ed25519', 'ES256', 'RS256', 'PS256'],
      });
      verified.push(header.kid);
    } catch {
      // not this one
    }
  }
  return verified;
}

const results = [];
for (const file of walk(siteDir).sort()) {
  const card = JSON.parse(readFileSync(file, 'utf8'));
  const r = { file: relative(siteDir, file) };
  r.strictVerifiedKids = await strictVerify(card);
  const { signatures, ...unsigned } = card;
  r.strictCanonical = canonicalize(unsigned);
  if (file.endsWith('agent-card.json')) {
    const jkus = [];
    try {
      await verifyAgentCardSignature(async (kid, jku) => {
        jkus.push(jku);
        if (jku !== expectedJku) throw new Error(`unexpected jku ${jku}`);
        return findKey(kid);
      })(card);
      r.sdkVerified = true;
    } catch (e) {
      r.sdkVerified = false;
      r.sdkError = String(e);
    }
    r.jkus = jkus;
    r.sdkCanonical = canonicalizeAgentCard(card);
  } else {
    r.schemaValid = validateV03(card);
    r.schemaErrors = validateV03.errors ?? [];
  }
  results.push(r);
}
process.stdout.write(JSON.stringify(results, null, 1) + '\n');
