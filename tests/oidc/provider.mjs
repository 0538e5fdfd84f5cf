// A real OpenID provider for the team-mode tests: the certified `oidc-provider` (pinned in
// package.json and its lock), on plain http at 127.0.0.1, with one confidential client,
// PKCE S256 required, and accounts read from a JSON file on every use (a test rewrites the
// file while the provider runs: a member whose claims change).
//
// Usage: node provider.mjs <config.json>
//   config: {"port", "client_id", "client_secret", "redirect_uris": [...], "accounts": path,
//            "tamper": path}
//   accounts file: [{"sub", "email", "name", "email_verified", "groups": [...]}, ...]
//
// Its own interaction pages: GET /interaction/<uid> is a login form with one `email` field
// (no password: the tests sign in as whoever they name); consent is granted at once
// (`loadExistingGrant`). Every start makes a new signing key with a new `kid`: a restart is
// also a key rotation. Prints "listening <issuer>" on stdout once it accepts connections.
//
// A test-only switch spoils the ID token of the token endpoint's answers: the config's
// `tamper` file, read at each answer (absent or `{}`: the token goes out as made), holds
// {"id_token": MODE}, MODE one of `TAMPERED` below.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createHmac, generateKeyPairSync, randomUUID, sign } from 'node:crypto';

import Provider from 'oidc-provider';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const issuer = `http://127.0.0.1:${config.port}`;

function accounts() {
  return JSON.parse(readFileSync(config.accounts, 'utf8'));
}

function accountBy(field, value) {
  return accounts().find((account) => account[field] === value);
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };

function readTamper() {
  try {
    return JSON.parse(readFileSync(config.tamper, 'utf8')).id_token ?? null;
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
}

const base64url = (value) => Buffer.from(value).toString('base64url');
const decoded = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

function signed(header, payload, key) {
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

// How each MODE spoils a well-made ID token (`header`, `payload` its decoded parts, `token`
// the whole of it): the spoiled token, or undefined to answer without one. Every spoiled
// token but `payload`, `alg_none` and `not_a_jws` is properly signed.
const TAMPERED = {
  absent: () => undefined,
  not_a_jws: () => 'not-a-token',
  // The payload changed (to the admin's email) and the signature kept: a bad signature.
  payload: (header, payload, token) => [token.split('.')[0],
    base64url(JSON.stringify({ ...payload, email: 'admin@example.com' })),
    token.split('.')[2]].join('.'),
  // Signed by a key the JWKS does not hold: under a kid of its own, and under the real one.
  foreign_key: (header, payload) => signed({ ...header, kid: randomUUID() }, payload, foreignKey),
  foreign_key_same_kid: (header, payload) => signed(header, payload, foreignKey),
  aud: (header, payload) => signed(header, { ...payload, aud: 'another-client' }, privateKey),
  iss: (header, payload) => signed(header, { ...payload, iss: 'http://127.0.0.1:9' }, privateKey),
  expired: (header, payload) => signed(header,
    { ...payload, iat: now() - 7200, exp: now() - 3600 }, privateKey),
  no_nonce: (header, payload) => {
    const { nonce: _dropped, ...rest } = payload;
    return signed(header, rest, privateKey);
  },
  alg_none: (header, payload) => `${base64url(JSON.stringify({ ...header, alg: 'none' }))}.${
    base64url(JSON.stringify(payload))}.`,
  // HMAC with the client secret, which the client knows: the algorithm-confusion attack.
  hs256_client_secret: (header, payload) => {
    const input = `${base64url(JSON.stringify({ ...header, alg: 'HS256' }))}.${
      base64url(JSON.stringify(payload))}`;
    return `${input}.${createHmac('sha256', config.client_secret).update(input).digest('base64url')}`;
  },
};

const provider = new Provider(issuer, {
  clients: [{
    client_id: config.client_id,
    client_secret: config.client_secret,
    redirect_uris: config.redirect_uris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  }],
  jwks: { keys: [jwk] },
  pkce: { required: () => true },
  scopes: ['openid', 'email', 'profile'],
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name', 'groups'],
  },
  // Claims go into the ID token itself, as most providers' do (the portal reads them there).
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: false } },
  cookies: { keys: [randomUUID()] },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(_ctx, sub) {
    if (!accountBy('sub', sub)) return undefined;
    return {
      accountId: sub,
      async claims() {
        const account = accountBy('sub', sub) ?? {};
        return {
          sub,
          email: account.email,
          email_verified: account.email_verified ?? true,
          name: account.name,
          groups: account.groups ?? [],
        };
      },
    };
  },
  async loadExistingGrant(ctx) {
    const grantId = ctx.oidc.result?.consent?.grantId
      || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
    if (grantId) {
      const found = await ctx.oidc.provider.Grant.find(grantId);
      if (found) return found;
    }
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    await grant.save();
    return grant;
  },
});

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path !== '/token' || typeof ctx.body?.id_token !== 'string') return;
  const mode = readTamper();
  if (mode === null) return;
  if (!TAMPERED[mode]) throw new Error(`unknown tamper mode ${mode}`);
  const token = ctx.body.id_token;
  const [header, payload] = token.split('.').slice(0, 2).map(decoded);
  const { id_token: _made, ...rest } = ctx.body;
  const spoiled = TAMPERED[mode](header, payload, token);
  ctx.body = spoiled === undefined ? rest : { ...rest, id_token: spoiled };
});

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function loginForm(uid, error) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Test provider: sign in</title>
</head><body><h1>Test provider</h1>${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label>Email <input type="email" name="email" autofocus></label>
<button type="submit">Sign in</button></form></body></html>`;
}

async function formBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

async function interaction(req, res, uid, action) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new Error('interaction mismatch');
  if (req.method === 'GET' && !action) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(loginForm(uid, null));
    return;
  }
  if (req.method === 'POST' && action === 'login') {
    const email = (await formBody(req)).get('email') ?? '';
    const account = accountBy('email', email);
    if (!account) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(loginForm(uid, `No account has the email ${email}.`));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: account.sub } },
      { mergeWithLastSubmission: false });
    return;
  }
  res.writeHead(405);
  res.end();
}

const handle = provider.callback();
const server = createServer(async (req, res) => {
  const match = /^\/interaction\/([^/?]+)(?:\/(login))?(?:\?.*)?$/.exec(req.url);
  if (!match) {
    handle(req, res);
    return;
  }
  try {
    await interaction(req, res, match[1], match[2]);
  } catch (error) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(`interaction failed: ${error.message}`);
  }
});
server.listen(config.port, '127.0.0.1', () => {
  process.stdout.write(`listening ${issuer}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
