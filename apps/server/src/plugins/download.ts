import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** A download: its file name and type, and its text in chunks, produced as they are read. */
export interface Download {
  fileName: string;
  contentType: string;
  chunks: AsyncIterable<string>;
}

/**
 * Sends a download as an attachment while it is produced. Bytes, not objects: the stream holds one page's
 * text and asks for the next only once the client has taken it in, so a slow download slows the reading
 * instead of filling memory.
 */
export function sendDownload(reply: FastifyReply, file: Download): FastifyReply {
  return reply
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .send(Readable.from(file.chunks, { objectMode: false }));
}
