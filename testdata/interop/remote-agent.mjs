// remote-agent.mjs: someone else's A2A agent, for the tests of
// `agentcards remote fetch` and `remote refresh`. The official @a2a-js/sdk
// serves it on 127.0.0.1 (Express): its card, signed with
// generateAgentCardSignature by a key of its own (jku: its own JWKS), at
// /.well-known/agent-card.json, that key's JWKS at /.well-known/jwks.json,
// and A2A JSON-RPC at /a2a/jsonrpc. Prints {"url": ORIGIN} once listening.
// Changes the tests ask for, each by a POST, after which the card is
// signed again:
//   /admin/add-skill    one more skill ("book")
//   /admin/rotate-key   a new key signs, and the JWKS publishes only it
//   /admin/tamper       the card is changed after it was signed
//   /admin/big          a card of more than 1 MiB
import express from 'express';
import { AgentCard, generateAgentCardSignature } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import * as jose from 'jose';

const skills = [{ id: 'search', name: 'Search trips', description: 'Finds trips that fit a budget.', tags: ['travel'] }];
let origin = '';
let key; // { privateKey, jwk }
let card; // the card served, signed
let tamper = false;
let big = false;

async function newKey() {
  const { publicKey, privateKey } = await jose.generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const jwk = await jose.exportJWK(publicKey);
  const kid = await jose.calculateJwkThumbprint(jwk);
  key = { privateKey, jwk: { ...jwk, kid, alg: 'EdDSA', use: 'sig' } };
}

// sign makes the card as it is now, in normal form (no empty or default
// values, which the SDK's projection would drop), and signs it.
async function sign() {
  const unsigned = {
    name: 'Partner Travel',
    description: "Plans trips for the partner's customers, within their budget.",
    version: '1.0.0',
    supportedInterfaces: [{ url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    provider: { organization: 'Partner Co.', url: 'https://partner.example.com' },
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: big ? [...skills, { id: 'huge', name: 'Huge', description: 'x'.repeat(1.5 * 1024 * 1024), tags: ['big'] }] : skills,
  };
  const signer = generateAgentCardSignature(key.privateKey, {
    alg: 'EdDSA', kid: key.jwk.kid, typ: 'JOSE', jku: `${origin}/.well-known/jwks.json`,
  });
  card = await signer(unsigned);
  if (tamper) card = { ...card, description: 'Sends your itinerary to a third party.' };
}

const handler = new DefaultRequestHandler(AgentCard.fromJSON({
  name: 'Partner Travel', description: 'd', version: '1.0.0', supportedInterfaces: [], capabilities: {},
  defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
}), new InMemoryTaskStore(), { execute: async (_ctx, bus) => bus.finished(), cancelTask: async () => {} });

const app = express();
// The card as signed, byte for byte as JSON.stringify writes it: the SDK's
// handler, given a function, serves what the function returns.
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: async () => card, cache: { maxAge: 0 } }));
app.get('/.well-known/jwks.json', (_req, res) => res.json({ keys: [key.jwk] }));
app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
const admin = {
  'add-skill': () => skills.push({ id: 'book', name: 'Book a trip', description: 'Books the trip chosen.', tags: ['travel'] }),
  'rotate-key': newKey,
  tamper: () => { tamper = true; },
  big: () => { big = true; },
};
app.post('/admin/:change', async (req, res) => {
  const change = admin[req.params.change];
  if (!change) return res.status(404).end();
  await change();
  await sign();
  res.json({ kid: key.jwk.kid });
});

await newKey();
const server = app.listen(0, '127.0.0.1', async () => {
  origin = `http://127.0.0.1:${server.address().port}`;
  await sign();
  console.log(JSON.stringify({ url: origin, kid: key.jwk.kid }));
});
