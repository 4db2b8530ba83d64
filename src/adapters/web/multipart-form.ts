import type { FastifyInstance, FastifyRequest } from "fastify";

/** An uploaded file as a form handler sees it: its name and its text (UTF-8). */
export interface UploadedFile {
  filename: string;
  text: string;
}

/**
 * Lets a context's forms be sent as `multipart/form-data`, which a file input needs to work
 * without script. The body is parsed by the platform's own FormData reader (undici's, in
 * Node) into the shape the url-encoded forms give: text fields as strings (so the CSRF check
 * reads `_csrf` as it always does), files as UploadedFile. Registered only where a page
 * takes an upload.
 */
export function acceptMultipartForms(app: FastifyInstance, bodyLimit: number): void {
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer", bodyLimit }, async (req: FastifyRequest, body: Buffer) => {
    const form = await new Response(body, { headers: { "content-type": String(req.headers["content-type"]) } }).formData().catch(() => {
      throw Object.assign(new Error("The form could not be read as multipart/form-data."), { statusCode: 400 });
    });
    const out: Record<string, string | UploadedFile> = {};
    for (const [name, value] of form) {
      // A repeated field is no field, as field() treats it for url-encoded forms.
      if (name in out) continue;
      out[name] = typeof value === "string" ? value : { filename: value.name, text: await value.text() };
    }
    return out;
  });
}

/** The file uploaded in a form field, or null when none was chosen (browsers send an empty, unnamed part then). */
export function uploadedFile(body: unknown, name: string): UploadedFile | null {
  const v = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof v !== "object" || v === null || !("text" in v)) return null;
  const file = v as UploadedFile;
  return file.filename === "" && file.text === "" ? null : file;
}
