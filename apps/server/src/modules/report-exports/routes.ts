import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { EXPORT_TEMPLATE_MAX_BYTES, reportOps } from '@portal/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { mailLanguage, requestLanguage } from '../../lib/language.ts';
import { route } from '../../lib/route.ts';
import { principalOf } from '../../plugins/auth.ts';
import type { ReportExportService, TemplateUpload } from './export-service.ts';

/** `attachment` with the name as ASCII (for old clients) and as UTF-8 (RFC 6266 / 5987). */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

const tooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', `The template is larger than ${EXPORT_TEMPLATE_MAX_BYTES / 1024 / 1024} MB`, [
    { path: 'file', message: 'validation.fileTooLarge' },
  ]);

/** The fields and the one file (`file`) of a template upload; transport problems become client errors. */
async function readTemplateUpload(req: FastifyRequest): Promise<TemplateUpload> {
  if (!req.isMultipart()) {
    throw new AppError('UNSUPPORTED_FILE_TYPE', 'Send the template as multipart/form-data with the file in "file"', [
      { path: 'file', message: 'validation.required' },
    ]);
  }
  const upload: TemplateUpload = { fields: {}, file: null };
  try {
    for await (const part of req.parts({ limits: { fileSize: EXPORT_TEMPLATE_MAX_BYTES } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') upload.file = { bytes, fileName: part.filename ?? '' };
      } else if (typeof part.value === 'string') {
        upload.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) throw tooLarge();
    throw new AppError('VALIDATION_FAILED', 'The upload could not be read', [
      { path: 'file', message: 'validation.invalid' },
    ]);
  }
  return upload;
}

const sendFile = (reply: FastifyReply, f: { fileName: string; type: string }) =>
  reply.header('content-disposition', attachment(f.fileName)).header('cache-control', 'private, no-store').type(f.type);

/** Report exports and export templates (docs/api-reports.md "Exports"). */
export const reportExportRoutes: FastifyPluginAsync<{ ctx: AppContext; exports: ReportExportService }> = async (
  app,
  { exports },
) => {
  const ops = reportOps;
  route(app, ops.createReportExport, async (req, reply) => {
    const p = principalOf(req);
    const lang = mailLanguage(requestLanguage(req.headers['accept-language']), p.language, p.lastLanguage);
    const job = await exports.create(p, req.body, lang, req.ip);
    reply.code(202);
    return job;
  });
  route(app, ops.listReportExports, async (req) => exports.list(principalOf(req), req.query.filter));
  route(app, ops.getReportExport, async (req) => exports.get(principalOf(req), req.params.id));
  route(app, ops.downloadReportExport, async (req, reply) => {
    const file = await exports.download(principalOf(req), req.params.id);
    sendFile(reply, file).header('content-length', file.size);
    return file.stream();
  });
  route(app, ops.listExportTemplates, async (req) => exports.listTemplates(principalOf(req), req.query.filter));
  route(app, ops.createExportTemplate, async (req) =>
    exports.createTemplate(principalOf(req), () => readTemplateUpload(req), req.ip),
  );
  route(app, ops.getExportTemplate, async (req) => exports.getTemplate(principalOf(req), req.params.id));
  route(app, ops.deleteExportTemplate, async (req) => exports.deleteTemplate(principalOf(req), req.params.id, req.ip));
  route(app, ops.downloadExportTemplate, async (req, reply) => {
    const file = await exports.downloadTemplate(principalOf(req), req.params.id);
    sendFile(reply, file);
    return file.bytes;
  });
};
