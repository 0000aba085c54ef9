//! Reading GIFs back for the GIF tests, with the `gif` crate's decoder: every frame drawn
//! onto the canvas as an image viewer shows it (each frame over the last, transparent pixels
//! keeping what was there).

/// What a GIF holds besides its pictures.
#[derive(Debug)]
pub struct GifInfo {
    pub width: usize,
    pub height: usize,
    /// Each frame's delay, in hundredths of a second.
    pub delays: Vec<u16>,
    pub repeat: gif::Repeat,
}

/// Decodes `bytes`, showing `visit` the canvas (RGBA) after each frame with its number.
pub fn decode(bytes: &[u8], mut visit: impl FnMut(usize, &[u8])) -> GifInfo {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let mut canvas = vec![0u8; width * height * 4];
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a good frame") {
        assert!(
            matches!(
                frame.dispose,
                gif::DisposalMethod::Keep | gif::DisposalMethod::Any
            ),
            "only frames kept under the next are written"
        );
        let (left, top) = (usize::from(frame.left), usize::from(frame.top));
        let frame_width = usize::from(frame.width);
        assert!(left + frame_width <= width && top + usize::from(frame.height) <= height);
        for (y, row) in frame.buffer.chunks_exact(frame_width * 4).enumerate() {
            for (x, pixel) in row.chunks_exact(4).enumerate() {
                if pixel[3] != 0 {
                    let at = ((top + y) * width + left + x) * 4;
                    canvas[at..at + 4].copy_from_slice(pixel);
                }
            }
        }
        visit(delays.len(), &canvas);
        delays.push(frame.delay);
    }
    GifInfo {
        width,
        height,
        delays,
        repeat: decoder.repeat(),
    }
}

/// The console picture `rgba` (256x256) enlarged `scale` times, as a GIF canvas.
pub fn enlarged(rgba: &[u8], scale: usize) -> Vec<u8> {
    let side = 256 * scale;
    let mut out = vec![0u8; side * side * 4];
    for y in 0..side {
        for x in 0..side {
            let from = ((y / scale) * 256 + x / scale) * 4;
            out[(y * side + x) * 4..][..4].copy_from_slice(&rgba[from..from + 4]);
        }
    }
    out
}

/// The colour (R, G, B) at console pixel (x, y) of a canvas `scale` times enlarged.
pub fn colour_at(canvas: &[u8], scale: usize, x: usize, y: usize) -> [u8; 3] {
    let at = (y * scale * 256 * scale + x * scale) * 4;
    [canvas[at], canvas[at + 1], canvas[at + 2]]
}

/// The RGBA pixels of a PNG file.
pub fn png_rgba(path: &std::path::Path) -> Vec<u8> {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(path).expect("the PNG"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buffer).expect("a picture");
    buffer.truncate(info.buffer_size());
    buffer
}
