/** Avatar image files the provider uploads (the emulator states what it accepts in its own code; a test compares the two). */

/** The image files the platform accepts as avatars, by extension, with their media types. */
const IMAGE_TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  bmp: "image/bmp",
  tiff: "image/tiff",
  ico: "image/vnd.microsoft.icon",
  webp: "image/webp",
};

/** The extensions an avatar may have. */
export const IMAGE_EXTENSIONS = Object.keys(IMAGE_TYPES);

/** The lower-cased extension of a file name, without the dot ("" when it has none). */
export function extensionOf(filename: string): string {
  return /\.([^./\\]+)$/.exec(filename)?.[1]?.toLowerCase() ?? "";
}

export function isImageFile(filename: string): boolean {
  return extensionOf(filename) in IMAGE_TYPES;
}

/** The media type of an image file, from its extension. */
export function imageContentType(filename: string): string {
  return IMAGE_TYPES[extensionOf(filename)] ?? "application/octet-stream";
}

/** The largest avatar the platform accepts (GitLab's limit). */
export const MAX_AVATAR_BYTES = 200 * 1024;
