//! A paper's representative figure: which image of its HTML rendition, and the small
//! thumbnail made of it.
//!
//! The choice, in document order: the first `figure.ltx_figure` (not a panel inside
//! another) whose first usable image is not a logo or an icon and is not declared smaller
//! than `MIN_DECLARED` px; if that image turns out smaller than `MIN_WIDTH` x
//! `MIN_HEIGHT` px, or narrower or taller than `MAX_ASPECT` to 1, the next figure's. Figure 1
//! is usually the paper's overview, which is what a reader scanning cards wants.

use super::html::{Figure, Image, Page};
use anyhow::{Result, anyhow, bail};

/// Images declared smaller than this (in either dimension) are icons or glyphs.
const MIN_DECLARED: u32 = 100;
const MIN_WIDTH: u32 = 150;
const MIN_HEIGHT: u32 = 80;
const MAX_ASPECT: f64 = 6.0;
/// Figures tried per paper before giving up.
pub const MAX_TRIED: usize = 3;

/// The images to try, one per figure, best first.
pub fn candidates(page: &Page) -> Vec<(&Figure, &Image)> {
    page.figures
        .iter()
        .filter_map(|f| f.images.iter().find(|i| usable(i)).map(|i| (f, i)))
        .collect()
}

fn usable(image: &Image) -> bool {
    let src = image.src.to_ascii_lowercase();
    let name = src.rsplit('/').next().unwrap_or(&src);
    !image.missing
        && !src.is_empty()
        && !src.starts_with("data:")
        && !src.ends_with('/')
        && !name.ends_with(".svg")
        && !["logo", "icon", "ar5iv.png", "orcid"]
            .iter()
            .any(|w| name.contains(w))
        && image.width.is_none_or(|w| w >= MIN_DECLARED)
        && image.height.is_none_or(|h| h >= MIN_DECLARED)
}

/// A thumbnail, ready to be saved.
#[derive(Debug, Clone, PartialEq)]
pub struct Thumbnail {
    /// WebP.
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// How thumbnails are made.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The width thumbnails are scaled to (never up).
    pub width: u32,
    /// Images with more pixels than this are refused before they are decoded: a small
    /// file can declare a huge image (a decompression bomb).
    pub max_pixels: u64,
    /// WebP quality, 0-100.
    pub quality: f32,
}

impl Default for Shape {
    fn default() -> Shape {
        Shape {
            width: 640,
            max_pixels: 40_000_000,
            quality: 70.0,
        }
    }
}

/// Decodes an image (PNG, JPEG, GIF or WebP), lays it on white (figures are drawn for a
/// white page; a transparent one on a dark card would lose its lines), scales it to
/// `shape.width` and encodes it as WebP. An image too small or too oddly shaped to stand
/// for the paper is an error that says so.
pub fn thumbnail(bytes: &[u8], shape: Shape) -> Result<Thumbnail> {
    use image::ImageReader;
    use std::io::Cursor;
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| anyhow!("cannot read the image: {e}"))?;
    let Some(format) = reader.format() else {
        bail!("not an image (no PNG, JPEG, GIF or WebP signature)");
    };
    let (w, h) = ImageReader::with_format(Cursor::new(bytes), format)
        .into_dimensions()
        .map_err(|e| anyhow!("not a readable {format:?} image: {e}"))?;
    if u64::from(w) * u64::from(h) > shape.max_pixels {
        bail!(
            "the image is {w} x {h} px, more than the {} pixels a figure may have",
            shape.max_pixels
        );
    }
    if w < MIN_WIDTH || h < MIN_HEIGHT {
        bail!("the image is {w} x {h} px: too small to stand for the paper");
    }
    let aspect = f64::from(w.max(h)) / f64::from(w.min(h).max(1));
    if aspect > MAX_ASPECT {
        bail!("the image is {w} x {h} px: too long and thin to stand for the paper");
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(w);
    limits.max_image_height = Some(h);
    reader.limits(limits);
    let decoded = reader
        .decode()
        .map_err(|e| anyhow!("the {format:?} image is broken: {e}"))?;
    let rgba = decoded.to_rgba8();
    // Scaled to the width, and no taller than 1.25 times it.
    let scale = (f64::from(shape.width) / f64::from(w))
        .min(f64::from(shape.width) * 1.25 / f64::from(h))
        .min(1.0);
    let tw = ((f64::from(w) * scale).round() as u32).max(1);
    let th = ((f64::from(h) * scale).round() as u32).max(1);
    let small = if (tw, th) == (w, h) {
        rgba
    } else {
        image::imageops::thumbnail(&rgba, tw, th)
    };
    let mut rgb = Vec::with_capacity((tw * th * 3) as usize);
    for p in small.pixels() {
        let [r, g, b, a] = p.0;
        let a = u32::from(a);
        for c in [r, g, b] {
            rgb.push(((u32::from(c) * a + 255 * (255 - a) + 127) / 255) as u8);
        }
    }
    let encoded = webp::Encoder::from_rgb(&rgb, tw, th).encode(shape.quality);
    Ok(Thumbnail {
        bytes: encoded.to_vec(),
        width: tw,
        height: th,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_fn(w, h, |x, y| {
            image::Rgba([
                (x % 256) as u8,
                (y % 256) as u8,
                128,
                if x < w / 2 { 255 } else { 0 },
            ])
        });
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn a_figure_becomes_a_small_webp_of_the_chosen_width() {
        let t = thumbnail(&png(1600, 900), Shape::default()).unwrap();
        assert_eq!((t.width, t.height), (640, 360));
        assert_eq!(&t.bytes[..4], b"RIFF");
        assert_eq!(&t.bytes[8..12], b"WEBP");
        // The same image gives the same bytes.
        assert_eq!(thumbnail(&png(1600, 900), Shape::default()).unwrap(), t);
        // Never scaled up; tall ones are held to 1.25 times the width.
        let narrow = thumbnail(&png(300, 200), Shape::default()).unwrap();
        assert_eq!((narrow.width, narrow.height), (300, 200));
        let tall = thumbnail(&png(1000, 2000), Shape::default()).unwrap();
        assert_eq!((tall.width, tall.height), (400, 800));
    }

    #[test]
    fn what_is_not_a_figure_is_refused_with_the_reason() {
        let err = |bytes: &[u8]| thumbnail(bytes, Shape::default()).unwrap_err().to_string();
        assert!(err(b"<html>404</html>").contains("not an image"));
        assert!(err(&png(64, 64)).contains("too small"));
        assert!(err(&png(3000, 200)).contains("long and thin"));
        let bomb = thumbnail(
            &png(2000, 2000),
            Shape {
                max_pixels: 1_000_000,
                ..Shape::default()
            },
        );
        assert!(
            bomb.unwrap_err()
                .to_string()
                .contains("more than the 1000000 pixels")
        );
        let cut = png(800, 600);
        assert!(err(&cut[..cut.len() / 2]).contains("broken"));
    }
}
