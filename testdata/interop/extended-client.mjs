// extended-client.mjs CARD_URL API_KEY [legacy]: fetches an agent's
// extended card with the official A2A JS SDK client over each transport the
// public card lists, verifies each with the SDK's verifyAgentCardSignature
// (keys from the jku, on loopback only), and asks once without the key.
// Prints one JSON object per line. With "legacy", CARD_URL is a v0.3 card
// (agent.json) and the client is the SDK's v0.3 one (legacyCompat) over
// JSON-RPC; the SDK's verifier reads cards through its v1.0 types only, so
// it cannot verify a v0.3 card and verifyError says so.
import { AgentCard, verifyAgentCardSignature } from '@a2a-js/sdk';
import {
  ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory,
} from '@a2a-js/sdk/client';

const [cardURL, apiKey, mode] = process.argv.slice(2);
const legacy = mode === 'legacy';
// The verifier logs each signature it cannot use (the strict one, over
// its own canonical form) with console.debug: keep stdout for results.
console.debug = () => {};
const verify = verifyAgentCardSignature(async (kid, jku) => {
  if (!jku || !/^http:\/\/127\.0\.0\.1:\d+\//.test(jku)) throw new Error(`jku ${jku} is not on loopback`);
  const jwks = await (await fetch(jku)).json();
  const key = jwks.keys.find((k) => k.kid === kid);
  if (!key) throw new Error(`no key ${kid} in ${jku}`);
  return key;
});

async function client(binding) {
  let opts = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] });
  if (legacy) {
    const legacyCompat = { enabled: true };
    opts = {
      transports: [new JsonRpcTransportFactory({ legacyCompat }), new RestTransportFactory({ legacyCompat })],
      preferredTransports: [binding],
      cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
    };
  }
  return new ClientFactory(opts).createFromUrl(cardURL, '');
}

for (const binding of legacy ? ['JSONRPC'] : ['JSONRPC', 'HTTP+JSON']) {
  const out = { binding };
  try {
    const c = await client(binding);
    out.protocolVersion = c.protocolVersion; // the A2A-Version it sends
    // getAgentCard calls GetExtendedAgentCard when the card advertises one.
    const card = await c.getAgentCard({ serviceParameters: { 'X-API-Key': apiKey } });
    const json = AgentCard.toJSON(card);
    out.name = json.name;
    out.skills = (json.skills ?? []).map((s) => s.id);
    out.extendedAgentCard = json.capabilities?.extendedAgentCard === true;
    try {
      await verify(json);
      out.verified = true;
    } catch (e) {
      out.verified = false;
      out.verifyError = String(e.message ?? e);
    }
  } catch (e) {
    out.error = String(e.message ?? e);
  }
  try {
    const c = await client(binding);
    await c.getAgentCard({ serviceParameters: { 'X-API-Key': 'wrong' } });
    out.unauthenticated = 'no error';
  } catch (e) {
    const status = e.statusCode ?? e.status;
    out.unauthenticated = `${e.name}: ${e.message}${status ? ` (HTTP ${status})` : ''}`;
  }
  console.log(JSON.stringify(out));
}
