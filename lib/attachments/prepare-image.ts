import sharp, { type Sharp } from "sharp";
import { AppError } from "@/lib/errors/app-error";

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 480;
/** Larger images are refused before they are decoded (a small file can declare a huge canvas). */
export const MAX_PIXELS = 100_000_000;

export interface PreparedImage {
  /** The image re-encoded upright, with no metadata (EXIF location, camera, comments). */
  bytes: Uint8Array;
  thumbnail: Uint8Array;
  width: number;
  height: number;
}

/**
 * An image as Chorus keeps it: turned upright by its EXIF orientation, then encoded again in its
 * own format without any metadata, and a WebP thumbnail. sharp works on libuv's threads, so the
 * event loop stays free.
 */
export async function prepareImage(name: string, bytes: Uint8Array, mediaType: string): Promise<PreparedImage> {
  try {
    const image = openImage(bytes, mediaType);
    const [clean, thumbnail] = await Promise.all([encodeAs(image.clone(), mediaType).toBuffer({ resolveWithObject: true }), thumbnailOf(image)]);
    return { bytes: new Uint8Array(clean.data), thumbnail: new Uint8Array(thumbnail), width: clean.info.width, height: clean.info.pageHeight ?? clean.info.height };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Input (buffer|file) /, "") : "unknown error";
    throw new AppError("bad_request", `${name} could not be read as an image (${reason}).`);
  }
}

/** The image turned upright by its EXIF orientation (every frame of an animation). */
export function openImage(bytes: Uint8Array, mediaType: string): Sharp {
  const animated = mediaType === "image/gif" || mediaType === "image/webp";
  return sharp(bytes, { animated, limitInputPixels: MAX_PIXELS }).rotate();
}

/** A WebP at most THUMBNAIL_SIZE a side; a JPEG is decoded at the scale it needs (shrink-on-load), not in full. */
export function thumbnailOf(image: Sharp): Promise<Buffer> {
  return image.clone().resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: "inside", withoutEnlargement: true }).webp({ quality: 75 }).toBuffer();
}

function encodeAs(image: Sharp, mediaType: string): Sharp {
  switch (mediaType) {
    case "image/png":
      return image.png();
    case "image/gif":
      return image.gif();
    case "image/webp":
      return image.webp({ quality: 90 });
    default:
      // Not mozjpeg: its files are a few percent smaller, but a 12-megapixel photo held one of
      // libuv's threads, which file reads and writes wait for too, 2 s instead of 0.3 s.
      return image.jpeg({ quality: 90 });
  }
}
