/**
 * The avatar files the server accepts and serves, as it states them itself:
 * an avatar must be an image by its file name's extension, and at most
 * 200 KiB; it is served with the media type of that extension.
 */

/** The image extensions accepted as avatars, in the order the refusal lists them, with the media type each is served as. */
const AVATAR_MEDIA_TYPES = new Map<string, string>([
  ["png", "image/png"],
  ["jpg", "image/jpeg"],
  ["jpeg", "image/jpeg"],
  ["gif", "image/gif"],
  ["bmp", "image/bmp"],
  ["tiff", "image/tiff"],
  ["ico", "image/vnd.microsoft.icon"],
  ["webp", "image/webp"],
]);

/** The largest avatar accepted, in bytes. */
export const AVATAR_MAX_BYTES = 200 * 1024;

/** The refusal of a file that is not an image, naming the extensions accepted. */
export const AVATAR_FORMAT_REFUSAL = `file format is not supported. Please try one of the following supported formats: ${[...AVATAR_MEDIA_TYPES.keys()].join(", ")}`;

/** A file name's extension, lower-cased, as the upload's check reads it ("" without one). */
function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot < 0 || /[/\\]/.test(filename.slice(dot)) ? "" : filename.slice(dot + 1).toLowerCase();
}

/** Whether the server takes a file of this name as an avatar. */
export function isAvatarImage(filename: string): boolean {
  return AVATAR_MEDIA_TYPES.has(extensionOf(filename));
}

/** The media type an avatar is served with. */
export function avatarMediaType(filename: string): string {
  return AVATAR_MEDIA_TYPES.get(extensionOf(filename)) ?? "application/octet-stream";
}
