import { posix } from 'node:path';
import {
  allocateAssetName,
  ASSETS_FOLDER,
  assetNameAllocator,
} from '../../../shared/gitsync/render-gitsync-layout';
import { MAX_FILES_PER_INSERT, type InsertFilesChange } from '../local-content-change';
import type { ClassifyContext } from './classify-context';
import type { PlannedChange } from './classify-result';

type Upload = { path: string; file: InsertFilesChange['files'][number] };

/**
 * New files under `.gitbook/assets/` → `insert_files` changes (in chunks the API accepts).
 * Changed and deleted ones are reported: uploaded files are neither replaced nor deleted.
 */
export function assetChanges(ctx: ClassifyContext): PlannedChange[] {
  const { scan, problems } = ctx;
  const uploads = assetUploads(ctx);
  for (const file of scan.changed) {
    if (file.kind !== 'asset') continue;
    problems.push({
      path: file.path,
      reason: 'unsupported',
      message: `${file.path} was changed, but uploaded files cannot be replaced; save it under a new name to upload it`,
    });
  }
  for (const entry of scan.deleted) {
    if (entry.kind !== 'asset') continue;
    problems.push({
      path: entry.path,
      reason: 'unsupported',
      message: `${entry.path} was deleted, but uploaded files are not deleted from the space`,
    });
  }
  const changes: PlannedChange[] = [];
  for (let i = 0; i < uploads.length; i += MAX_FILES_PER_INSERT) {
    const chunk = uploads.slice(i, i + MAX_FILES_PER_INSERT);
    changes.push({
      change: { operation: 'insert_files', files: chunk.map((upload) => upload.file) },
      reason: 'new-files',
      paths: chunk.map((upload) => upload.path),
    });
  }
  return changes;
}

/** The new asset files that can be uploaded; the others are reported. */
function assetUploads({ scan, index, problems, maxUploadBytes }: ClassifyContext): Upload[] {
  const uploads: Upload[] = [];
  // Where the pull will put each upload, after the space's files: an upload must land on its own
  // file, or the pull would write a second copy and never recognise the first.
  const placement = assetNameAllocator(
    index.filter((entry) => entry.kind === 'asset').map((entry) => posix.basename(entry.path)),
  );
  for (const file of scan.added) {
    if (file.kind !== 'asset') continue;
    const name = file.path.slice(ASSETS_FOLDER.length + 1);
    if (name.includes('/')) {
      problems.push({
        path: file.path,
        reason: 'unsupported',
        message: `${file.path}: files in folders under ${ASSETS_FOLDER}/ are not synced`,
      });
      continue;
    }
    const placed = allocateAssetName(placement, name);
    if (placed !== name) {
      problems.push({
        path: file.path,
        reason: 'unsupported',
        message: `${file.path}: the synced copy would be named "${placed}" (a name another file has, or one not every system accepts); rename the file to upload it`,
      });
      continue;
    }
    if (file.size > maxUploadBytes || file.bytes === undefined) {
      problems.push({
        path: file.path,
        reason: 'too-large',
        message: `${file.path} is over the ${Math.round(maxUploadBytes / 1024)} KiB upload limit; it was not uploaded`,
      });
      continue;
    }
    uploads.push({
      path: file.path,
      file: {
        name,
        contentType: contentTypeOf(name),
        base64: Buffer.from(file.bytes).toString('base64'),
      },
    });
  }
  return uploads;
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
};

function contentTypeOf(name: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
