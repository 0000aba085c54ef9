//! Tile layer data as Tiled encodes it: CSV, or base64 of little-endian 32-bit global tile ids,
//! uncompressed or compressed with zlib, gzip or zstd. Decompression stops one byte past the
//! size the layer needs, so a small file cannot inflate into gigabytes.

use std::io::Read;

use base64::Engine;

/// Tiled's flip bits in a global tile id.
pub const FLIP_H: u32 = 0x8000_0000;
pub const FLIP_V: u32 = 0x4000_0000;
/// Anti-diagonal flip (with the others, a rotation by 90 degrees).
pub const FLIP_D: u32 = 0x2000_0000;
/// 120-degree rotation (hexagonal maps only).
pub(crate) const ROTATE_HEX: u32 = 0x1000_0000;
/// Every flag bit.
pub(crate) const GID_FLAGS: u32 = FLIP_H | FLIP_V | FLIP_D | ROTATE_HEX;

/// Parses CSV layer data; on error, the 0-based line (within `text`) and a message.
pub fn csv(text: &str) -> Result<Vec<u32>, (usize, String)> {
    let mut gids = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        for item in line.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let gid = item.parse::<u32>().map_err(|_| {
                (
                    line_no,
                    format!("`{item}` in the layer data is not a tile id (0 to 4294967295)"),
                )
            })?;
            gids.push(gid);
        }
    }
    Ok(gids)
}

/// Decodes base64 layer data with `compression` ("" or absent for none), expecting `cells`
/// tile ids. A wrong count is left to the caller, which knows the layer's name.
pub fn base64(text: &str, compression: &str, cells: usize) -> Result<Vec<u32>, String> {
    let cleaned: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let raw = base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .map_err(|e| format!("the layer data is not valid base64 ({e})"))?;
    // One id more than the layer needs is enough to tell "too long".
    let limit = (cells as u64 + 1) * 4;
    let bytes = match compression {
        "" => raw,
        "zlib" => inflate(flate2::read::ZlibDecoder::new(&raw[..]), limit, "zlib")?,
        "gzip" => inflate(flate2::read::GzDecoder::new(&raw[..]), limit, "gzip")?,
        "zstd" => {
            let decoder = ruzstd::decoding::StreamingDecoder::new(&raw[..])
                .map_err(|e| format!("the zstd layer data is corrupt ({e})"))?;
            inflate(decoder, limit, "zstd")?
        }
        other => {
            return Err(format!(
                "compression `{other}` is not one Tiled writes (zlib, gzip, zstd or none)"
            ));
        }
    };
    if bytes.len() % 4 != 0 {
        return Err(format!(
            "the layer data is {} bytes, not a whole number of 4-byte tile ids",
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

/// Reads at most `limit` bytes from a decompressor.
fn inflate(reader: impl Read, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    reader
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|e| format!("the {what} layer data is corrupt ({e})"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn ids_bytes(ids: &[u32]) -> Vec<u8> {
        ids.iter().flat_map(|i| i.to_le_bytes()).collect()
    }

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    #[test]
    fn csv_reads_ids_across_lines_and_names_bad_items() {
        assert_eq!(csv("1,2,\n3,4\n").unwrap(), [1, 2, 3, 4]);
        assert_eq!(csv("\n 1 , 2147483649 \n").unwrap(), [1, 2147483649]);
        let (line, message) = csv("1,2,\n3,x\n").unwrap_err();
        assert_eq!(line, 1);
        assert!(message.contains("`x`"), "{message}");
        assert!(csv("-1").is_err());
    }

    #[test]
    fn base64_reads_every_compression_tiled_writes() {
        let ids = [1, 0, FLIP_H | 7, 300];
        let raw = ids_bytes(&ids);
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
        zlib.write_all(&raw).unwrap();
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), Default::default());
        gzip.write_all(&raw).unwrap();
        assert_eq!(base64(&b64(&raw), "", 4).unwrap(), ids);
        assert_eq!(
            base64(
                &format!("\n  {}\n", b64(&zlib.finish().unwrap())),
                "zlib",
                4
            )
            .unwrap(),
            ids
        );
        assert_eq!(
            base64(&b64(&gzip.finish().unwrap()), "gzip", 4).unwrap(),
            ids
        );
        // A zstd frame of the 16 bytes, stored raw (what `zstd --no-check -1` makes of them).
        let zstd = [
            &[0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x10, 0x81, 0x00, 0x00][..],
            &raw[..],
        ]
        .concat();
        assert_eq!(base64(&b64(&zstd), "zstd", 4).unwrap(), ids);
        // The ids 1, 2, 3, 0 three times, compressed by the `zstd` tool (level 19, with its
        // checksum): a real compressed block, as Tiled writes them.
        let real = "KLUv/SQwdQAAAoEBgjIQ/xwvAQAGn0vn+uoN";
        assert_eq!(base64(real, "zstd", 12).unwrap(), [1, 2, 3, 0].repeat(3));
    }

    #[test]
    fn base64_refuses_bad_data_and_stops_early_on_bombs() {
        assert!(base64("***", "", 1).unwrap_err().contains("base64"));
        assert!(
            base64(&b64(&[1, 2, 3]), "", 1)
                .unwrap_err()
                .contains("4-byte")
        );
        assert!(
            base64(&b64(&[1, 2, 3, 4]), "lz4", 1)
                .unwrap_err()
                .contains("lz4")
        );
        assert!(
            base64(&b64(&[9; 40]), "zlib", 1)
                .unwrap_err()
                .contains("zlib")
        );
        // 64 MiB of zeros compress to a few kilobytes; only 8 bytes are inflated.
        let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
        zlib.write_all(&vec![0u8; 64 << 20]).unwrap();
        let ids = base64(&b64(&zlib.finish().unwrap()), "zlib", 1).unwrap();
        assert_eq!(ids.len(), 2, "one id past the layer's size, no more");
    }
}
