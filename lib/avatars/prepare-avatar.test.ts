import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { prepareAvatar } from "./prepare-avatar";

const BLUE = { r: 0, g: 0, b: 255 };
const RED = { r: 255, g: 0, b: 0 };

/** A photo 200×100 as stored, blue on its left half and red on its right, that says "turn me 90° clockwise". */
async function sidewaysPhoto(): Promise<Buffer> {
  const half = (background: typeof BLUE) => sharp({ create: { width: 100, height: 100, channels: 3, background } }).png().toBuffer();
  return sharp({ create: { width: 200, height: 100, channels: 3, background: RED } })
    .composite([{ input: await half(BLUE), left: 0, top: 0 }, { input: await half(RED), left: 100, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

async function pixel(image: Uint8Array, x: number, y: number) {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at]!, g: data[at + 1]!, b: data[at + 2]! };
}

const near = (colour: typeof BLUE) => ({ r: expect.toSatisfy((r: number) => Math.abs(r - colour.r) < 40), g: expect.toSatisfy((g: number) => g < 40), b: expect.toSatisfy((b: number) => Math.abs(b - colour.b) < 40) });

describe("prepareAvatar", () => {
  it("turns a photo upright, then keeps its middle square, 256 pixels a side, as WebP without metadata", async () => {
    const avatar = await prepareAvatar("me.jpg", await sidewaysPhoto());

    const kept = await sharp(avatar).metadata();
    expect(kept).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(kept.exif).toBeUndefined();
    expect(kept.orientation).toBeUndefined();
    // Upright, the blue half is on top: the middle square is blue above and red below.
    expect(await pixel(avatar, 10, 10)).toEqual(near(BLUE));
    expect(await pixel(avatar, 245, 10)).toEqual(near(BLUE));
    expect(await pixel(avatar, 10, 245)).toEqual(near(RED));
  });

  it("refuses bytes sharp cannot read, under the avatar's field", async () => {
    await expect(prepareAvatar("broken.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]))).rejects.toMatchObject({
      code: "bad_request",
      fields: { avatar: expect.stringMatching(/^broken\.png could not be read as an image \(.+\)\. Choose a PNG, JPEG, WebP or GIF picture\.$/) },
    });
  });
});
