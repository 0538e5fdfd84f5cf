// A real OpenID provider for the team-mode tests: the certified `oidc-provider` (pinned in
// package.json and its lock), on plain http at 127.0.0.1, with one confidential client,
// PKCE S256 required, and accounts read from a JSON file on every use (a test rewrites the
// file while the provider runs: a member whose claims change).
//
// Usage: node provider.mjs <config.json>
//   config: {"port", "client_id", "client_secret", "redirect_uris": [...], "accounts": path}
//   accounts file: [{"sub", "email", "name", "email_verified", "groups": [...]}, ...]
//
// Its own interaction pages: GET /interaction/<uid> is a login form with one `email` field
// (no password: the tests sign in as whoever they name); consent is granted at once
// (`loadExistingGrant`). Every start makes a new signing key with a new `kid`: a restart is
// also a key rotation. Prints "listening <issuer>" on stdout once it accepts connections.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { generateKeyPairSync, randomUUID } from 'node:crypto';

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
