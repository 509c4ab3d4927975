//! The captcha's image: a code drawn by the daemon into a PNG, so the text
//! is in no message, no button and no metadata a script could read.
//!
//! Pure and deterministic given its seed (the caller draws the seed from
//! the OS's randomness): each digit of a built-in 5x7 bitmap font is
//! scaled, rotated and offset on its own, the whole is bent by a sine warp,
//! then crossed by noise lines and sprinkled with dots in the ink's own
//! shade, so cutting the glyphs apart or matching them against the font
//! takes more than a lookup. It is not meant to stop a determined OCR
//! model, only the scripts that read messages (the bar).

/// The image's width in pixels.
pub const WIDTH: u32 = 220;
/// The image's height in pixels.
pub const HEIGHT: u32 = 80;

/// The font's glyphs, 5 columns by 7 rows, one `u8` a row (the low 5 bits,
/// the leftmost column the highest bit), for the digits 0 to 9.
const FONT: [[u8; 7]; 10] = [
    [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], // 0
    [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E], // 1
    [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], // 2
    [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E], // 3
    [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], // 4
    [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E], // 5
    [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], // 6
    [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08], // 7
    [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], // 8
    [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C], // 9
];

/// A small deterministic generator (SplitMix64): the image's jitter needs
/// no cryptographic quality, only to differ per seed; the code itself and
/// the seed come from the OS.
struct Jitter(u64);

impl Jitter {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A float in `[lo, hi)`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        lo + unit * (hi - lo)
    }

    /// An integer in `[0, n)`.
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }
}

/// Why a code could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The code has a character the font does not draw.
    #[error("a captcha code is digits only, got {0:?}")]
    NotADigit(char),
    /// The encoder failed (it writes to memory: not expected).
    #[error("the captcha's PNG could not be encoded: {0}")]
    Png(#[from] png::EncodingError),
}

/// Draws `code` (digits) into an 8-bit greyscale PNG of [`WIDTH`] by
/// [`HEIGHT`], its distortions chosen by `seed`.
pub fn render(code: &str, seed: u64) -> Result<Vec<u8>, RenderError> {
    let pixels = draw(code, seed)?;
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, WIDTH, HEIGHT);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&pixels)?;
    }
    Ok(out)
}

/// The background's shade and the ink's (the noise is in the ink's shade,
/// so a threshold keeps it with the glyphs).
const PAPER: u8 = 0xF2;
const INK: u8 = 0x30;

/// The pixels, row by row, one byte each.
fn draw(code: &str, seed: u64) -> Result<Vec<u8>, RenderError> {
    let glyphs = code
        .chars()
        .map(|c| {
            c.to_digit(10)
                .map(|d| &FONT[d as usize])
                .ok_or(RenderError::NotADigit(c))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (w, h) = (WIDTH as usize, HEIGHT as usize);
    let mut ink = vec![false; w * h];
    let mut jitter = Jitter(seed);
    let cell = WIDTH as f64 / (glyphs.len().max(1) as f64 + 0.6);
    for (i, glyph) in glyphs.iter().enumerate() {
        // Each glyph its own size, tilt and place.
        let scale = jitter.range(5.2, 7.2);
        let angle = jitter.range(-0.45, 0.45);
        let cx = cell * (i as f64 + 0.8) + jitter.range(-4.0, 4.0);
        let cy = HEIGHT as f64 / 2.0 + jitter.range(-8.0, 8.0);
        let (sin, cos) = angle.sin_cos();
        let reach = (scale * 5.0) as i64;
        for y in (cy as i64 - reach).max(0)..(cy as i64 + reach).min(h as i64) {
            for x in (cx as i64 - reach).max(0)..(cx as i64 + reach).min(w as i64) {
                // The output pixel back into the glyph's own grid.
                let (dx, dy) = (x as f64 - cx, y as f64 - cy);
                let gx = (dx * cos + dy * sin) / scale + 2.5;
                let gy = (-dx * sin + dy * cos) / scale + 3.5;
                if gx < 0.0 || gy < 0.0 {
                    continue;
                }
                let (col, row) = (gx as usize, gy as usize);
                if col < 5 && row < 7 && glyph[row] & (0x10 >> col) != 0 {
                    ink[y as usize * w + x as usize] = true;
                }
            }
        }
    }
    // The sine warp: each row shifted, each column lifted.
    let (ax, fx, px) = (
        jitter.range(2.0, 4.5),
        jitter.range(0.08, 0.16),
        jitter.range(0.0, 6.3),
    );
    let (ay, fy, py) = (
        jitter.range(2.0, 5.0),
        jitter.range(0.03, 0.07),
        jitter.range(0.0, 6.3),
    );
    let mut pixels = vec![PAPER; w * h];
    for y in 0..h {
        for x in 0..w {
            let sx = x as f64 + ax * (y as f64 * fx + px).sin();
            let sy = y as f64 + ay * (x as f64 * fy + py).sin();
            let (sx, sy) = (sx.round() as i64, sy.round() as i64);
            if (0..w as i64).contains(&sx)
                && (0..h as i64).contains(&sy)
                && ink[sy as usize * w + sx as usize]
            {
                pixels[y * w + x] = INK;
            }
        }
    }
    // Noise lines across the glyphs, then dots.
    for _ in 0..5 {
        let (x0, y0) = (jitter.below(WIDTH) as i64, jitter.below(HEIGHT) as i64);
        let (x1, y1) = (jitter.below(WIDTH) as i64, jitter.below(HEIGHT) as i64);
        line(&mut pixels, (x0, y0), (x1, y1));
    }
    for _ in 0..(w * h / 40) {
        let (x, y) = (jitter.below(WIDTH) as usize, jitter.below(HEIGHT) as usize);
        pixels[y * w + x] = if jitter.below(2) == 0 { INK } else { PAPER };
    }
    Ok(pixels)
}

/// Bresenham's line in ink, two pixels thick.
fn line(pixels: &mut [u8], (mut x0, mut y0): (i64, i64), (x1, y1): (i64, i64)) {
    let (w, h) = (WIDTH as i64, HEIGHT as i64);
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    loop {
        for (x, y) in [(x0, y0), (x0, y0 + 1)] {
            if (0..w).contains(&x) && (0..h).contains(&y) {
                pixels[(y * w + x) as usize] = INK;
            }
        }
        if x0 == x1 && y0 == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x0 += sx;
        }
        if e2 <= dx {
            err += dx;
            y0 += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_png_decodes_to_the_stated_size_in_greyscale() {
        let png_bytes = render("40719", 7).unwrap();
        assert_eq!(&png_bytes[..8], b"\x89PNG\r\n\x1a\n");
        let decoder = png::Decoder::new(png_bytes.as_slice());
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (WIDTH, HEIGHT));
        assert_eq!(info.color_type, png::ColorType::Grayscale);
        assert_eq!(&buf[..info.buffer_size()], draw("40719", 7).unwrap());
        // The code is nowhere in the file's bytes.
        assert!(!png_bytes.windows(5).any(|w| w == b"40719"));
    }

    #[test]
    fn the_image_depends_on_the_code_and_the_seed_only() {
        let table = [
            (("12345", 1), ("12345", 1), true),
            (("12345", 1), ("12345", 2), false),
            (("12345", 1), ("12346", 1), false),
            (("00000", 9), ("88888", 9), false),
        ];
        for ((a, sa), (b, sb), same) in table {
            let (x, y) = (draw(a, sa).unwrap(), draw(b, sb).unwrap());
            assert_eq!(x == y, same, "{a}/{sa} vs {b}/{sb}");
        }
    }

    #[test]
    fn the_glyphs_are_drawn_and_only_digits_are_accepted() {
        let pixels = draw("8888", 3).unwrap();
        let inked = pixels.iter().filter(|p| **p == INK).count();
        // Four 8s at scale 5+ cover far more than the noise alone.
        let noise_only = draw("", 3).unwrap().iter().filter(|p| **p == INK).count();
        assert!(inked > noise_only + 1_000, "{inked} vs {noise_only}");
        assert!(matches!(draw("12a4", 3), Err(RenderError::NotADigit('a'))));
    }
}
