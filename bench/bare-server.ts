/** The baseline: bare node:http answering a static JSON body of the same size. */
import { createServer } from "node:http";

const body = Buffer.from(process.argv[2] ?? "{}");
const server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}` })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
