// extended-client.mjs CARD_URL API_KEY: fetches an agent's extended card
// with the official A2A JS SDK client over each transport the public card
// lists, verifies each with the SDK's verifyAgentCardSignature (keys from
// the jku, on loopback only), and asks once without the key. Prints one
// JSON object per line.
import { AgentCard, verifyAgentCardSignature } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';

const [cardURL, apiKey] = process.argv.slice(2);
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
  const opts = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { preferredTransports: [binding] });
  return new ClientFactory(opts).createFromUrl(cardURL, '');
}

for (const binding of ['JSONRPC', 'HTTP+JSON']) {
  const out = { binding };
  try {
    const c = await client(binding);
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
