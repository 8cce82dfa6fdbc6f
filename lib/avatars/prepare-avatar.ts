import sharp from "sharp";
import { AppError } from "@/lib/errors/app-error";
import { MAX_PIXELS } from "@/lib/attachments/prepare-image";
import { AVATAR_SIZE } from "./avatar-rules";

/**
 * A picture as an avatar: turned upright by its EXIF orientation, the largest centred square cut
 * out, AVATAR_SIZE a side, a still WebP (an animation's first frame) without any metadata.
 */
export async function prepareAvatar(name: string, bytes: Uint8Array): Promise<Uint8Array> {
  try {
    const avatar = await sharp(bytes, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: "cover", position: "centre" })
      .webp({ quality: 85 })
      .toBuffer();
    return new Uint8Array(avatar);
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Input (buffer|file) /, "") : "unknown error";
    const message = `${name} could not be read as an image (${reason}). Choose a PNG, JPEG, WebP or GIF picture.`;
    throw new AppError("bad_request", message, { avatar: message });
  }
}
