import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { normaliseEmail } from "../../domain/people/email.ts";
import { LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_ADDRESS, LOGIN_WINDOW_MS, loginSubjects } from "../../domain/people/login-throttle.ts";
import { checkPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../domain/people/password.ts";
import { field, requireUser, sendPage, type WebContext } from "./context.ts";
import { html } from "../shared/html.ts";
import { flash } from "./layout.ts";
import { decoyHash, hashPassword, verifyPassword } from "./password-hasher.ts";
import { csrfToken, currentUser, endAllSessions, endSession, safeNext, startSession } from "./session.ts";

/** The home page, sign-in, sign-out (here and everywhere) and, when open, sign-up. */
export function registerAuthPages(app: FastifyInstance, ctx: WebContext): void {
  app.get("/", async (req, reply) => {
    const user = await currentUser(req);
    return sendPage(
      req,
      reply,
      { title: "Maritime Data Service" },
      html`<p>Vessels, tracks, ports, sanctions screening and alerts, with every fact's right to be shown checked and explained.
Use it through the REST API, the MCP server at <code>/mcp</code>, or signed webhooks.</p>
<ul>
<li>${user ? html`<a href="/account">Your account</a>` : html`<a href="/login">Sign in</a>${ctx.signupOpen ? html` or <a href="/signup">create an account</a>` : ""}`}</li>
<li><a href="/search">Search vessels, ports and flags</a></li>
<li><a href="/docs/api">API documentation</a></li>
<li><a href="/api/v1/openapi.json">OpenAPI description</a></li>
</ul>`,
    );
  });

  const loginForm = (req: FastifyRequest, reply: FastifyReply, o: { next: string; email?: string; error?: string }, status = 200) =>
    sendPage(
      req,
      reply,
      { title: "Sign in" },
      html`${flash("error", o.error)}
<form method="post" action="/login" class="stack">
<input type="hidden" name="_csrf" value="${csrfToken(req, reply)}">
<input type="hidden" name="next" value="${o.next}">
<p><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ""}"></p>
<p><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit" id="sign-in">Sign in</button></p>
</form>
${ctx.signupOpen ? html`<p>No account yet? <a href="/signup">Create one</a>.</p>` : html`<p>Accounts are created by the operator (<code>npx mds users create</code>).</p>`}`,
      status,
    );

  app.get("/login", async (req, reply) => {
    const next = safeNext((req.query as Record<string, unknown>).next);
    if (await currentUser(req)) return reply.redirect(next, 303);
    return loginForm(req, reply, { next });
  });

  app.post("/login", async (req, reply) => {
    const next = safeNext(field(req.body, "next"));
    const typed = field(req.body, "email");
    const password = field(req.body, "password");
    const email = normaliseEmail(typed);
    const now = ctx.clock.now();
    const subjects = loginSubjects(req.ip, email.ok ? email.value : typed.trim().toLowerCase());
    const wait = Math.max(
      await ctx.attempts.wait(subjects.address, LOGIN_MAX_FAILURES_PER_ADDRESS, LOGIN_WINDOW_MS, now),
      await ctx.attempts.wait(subjects.email, LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, now),
    );
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60_000);
      reply.header("retry-after", String(Math.ceil(wait / 1000)));
      return loginForm(req, reply, { next, email: typed, error: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"} (after ${new Date(now + wait).toISOString().slice(11, 16)} UTC).` }, 429);
    }
    const user = email.ok && password.length <= PASSWORD_MAX_LENGTH * 4 ? await ctx.users.findByEmail(email.value) : null;
    // Unknown e-mails cost a hash too, so the time taken does not tell who has an account.
    const check = await verifyPassword(password.slice(0, PASSWORD_MAX_LENGTH * 4), user?.passwordHash ?? (await decoyHash()));
    if (!user || !check.ok) {
      await Promise.all([ctx.attempts.add(subjects.address, LOGIN_WINDOW_MS, now), ctx.attempts.add(subjects.email, LOGIN_WINDOW_MS, now)]);
      return loginForm(req, reply, { next, email: typed, error: "Wrong e-mail or password." }, 401);
    }
    await ctx.attempts.clear(subjects.email);
    if (check.rehash) await ctx.users.setPasswordHash(user.id, await hashPassword(password));
    await startSession(req, reply, user.id);
    return reply.redirect(next, 303);
  });

  app.post("/logout", async (req, reply) => {
    await endSession(req, reply);
    return reply.redirect("/", 303);
  });

  app.post("/logout/everywhere", async (req, reply) => {
    const user = await requireUser(req, reply);
    if (!user) return reply;
    await endAllSessions(req, user.userId);
    await endSession(req, reply);
    return reply.redirect("/login", 303);
  });

  const signupForm = (req: FastifyRequest, reply: FastifyReply, o: { email?: string; error?: string }, status = 200) =>
    sendPage(
      req,
      reply,
      { title: "Create an account" },
      html`<p>A new account starts on the free Sandbox plan.</p>
${flash("error", o.error)}
<form method="post" action="/signup" class="stack">
<input type="hidden" name="_csrf" value="${csrfToken(req, reply)}">
<p><label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ""}"></p>
<p><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" aria-describedby="password-rule">
<span id="password-rule" class="hint">${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.</span></p>
<p><button type="submit" id="create-account">Create account</button></p>
</form>`,
      status,
    );

  app.get("/signup", async (req, reply) => {
    if (!ctx.signupOpen) return closedSignup(req, reply);
    return signupForm(req, reply, {});
  });

  app.post("/signup", async (req, reply) => {
    if (!ctx.signupOpen) return closedSignup(req, reply);
    const typed = field(req.body, "email");
    const email = normaliseEmail(typed);
    if (!email.ok) return signupForm(req, reply, { email: typed, error: `E-mail ${email.rule}.` }, 400);
    const password = checkPassword(field(req.body, "password"));
    if (!password.ok) return signupForm(req, reply, { email: typed, error: `Password ${password.rule}.` }, 400);
    // Checked first, so the common case answers before a hash is computed; the transaction below decides a race.
    if (await ctx.users.findByEmail(email.value)) return signupForm(req, reply, { email: typed, error: "That e-mail already has an account; sign in instead." }, 409);
    const passwordHash = await hashPassword(password.value);
    // The account and its user are made together: a sign-up racing this one on the same e-mail leaves no account without a user.
    const created = await ctx.users.createAccountWithUser({ account: { name: email.value, webPlan: "sandbox", apiPlan: null }, email: email.value, passwordHash });
    if (!created.ok) return signupForm(req, reply, { email: typed, error: "That e-mail already has an account; sign in instead." }, 409);
    await startSession(req, reply, created.user.id);
    return reply.redirect("/account", 303);
  });

  function closedSignup(req: FastifyRequest, reply: FastifyReply) {
    return sendPage(req, reply, { title: "Sign-up is closed" }, html`<p>This service does not take sign-ups; ask its operator for an account.</p>`, 404);
  }
}
