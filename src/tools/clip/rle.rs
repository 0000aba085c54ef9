//! Run-length packing of a recorded picture's palette indices, so that ten seconds of
//! pictures take a few megabytes instead of tens. Game pictures are long runs of one index
//! (backdrop, floors, sky), so packing costs about one pass over the picture and usually
//! shrinks it five to twenty times.
//!
//! The packed form is a list of chunks, each starting with a control byte `c`:
//! `c < 128` is followed by `c + 1` literal bytes; `c >= 128` by one byte repeated
//! `c - 125` times (3 to 130). A picture never grows by more than 1 byte in 128.

/// Longest run one chunk holds.
const MAX_RUN: usize = 130;
/// Shortest run worth a run chunk (two equal bytes cost the same as literals).
const MIN_RUN: usize = 3;
/// Most literal bytes one chunk holds.
const MAX_LITERAL: usize = 128;

/// Appends `data`, packed, to `out`.
pub fn pack(data: &[u8], out: &mut Vec<u8>) {
    let mut literal_start = 0;
    let mut i = 0;
    while i < data.len() {
        let byte = data[i];
        let run = data[i..]
            .iter()
            .take(MAX_RUN)
            .take_while(|&&b| b == byte)
            .count();
        if run >= MIN_RUN {
            push_literal(&data[literal_start..i], out);
            out.push((run + 125) as u8);
            out.push(byte);
            i += run;
            literal_start = i;
        } else {
            i += run;
        }
    }
    push_literal(&data[literal_start..], out);
}

fn push_literal(bytes: &[u8], out: &mut Vec<u8>) {
    for chunk in bytes.chunks(MAX_LITERAL) {
        out.push((chunk.len() - 1) as u8);
        out.extend_from_slice(chunk);
    }
}

/// Appends the bytes `packed` holds to `out`. A chunk cut short (which [`pack`] never
/// writes) ends the output where it is cut.
pub fn unpack(packed: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while let Some(&control) = packed.get(i) {
        if control < 128 {
            let len = usize::from(control) + 1;
            let end = (i + 1 + len).min(packed.len());
            out.extend_from_slice(&packed[i + 1..end]);
            i += 1 + len;
        } else {
            let Some(&byte) = packed.get(i + 1) else {
                return;
            };
            out.resize(out.len() + usize::from(control) - 125, byte);
            i += 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: &[u8]) -> Vec<u8> {
        let mut packed = Vec::new();
        pack(data, &mut packed);
        let mut out = Vec::new();
        unpack(&packed, &mut out);
        assert_eq!(out, data);
        packed
    }

    #[test]
    fn runs_literals_and_their_limits_round_trip() {
        assert!(round_trip(&[]).is_empty());
        assert_eq!(round_trip(&[7]), [0, 7]);
        assert_eq!(round_trip(&[7, 7]), [1, 7, 7]);
        assert_eq!(round_trip(&[7, 7, 7]), [128, 7]);
        assert_eq!(round_trip(&[1, 2, 2, 2, 3]), [0, 1, 128, 2, 0, 3]);
        // A run longer than one chunk holds continues in the next.
        assert_eq!(round_trip(&[9; 131]), [255, 9, 0, 9]);
        assert_eq!(round_trip(&[9; 260]), [255, 9, 255, 9]);
        // Literal stretches longer than a chunk are split.
        let ramp: Vec<u8> = (0..=255).collect();
        let packed = round_trip(&ramp);
        assert_eq!(packed.len(), 258);
        assert_eq!((packed[0], packed[129]), (127, 127));
    }

    #[test]
    fn a_picture_of_runs_shrinks_and_noise_barely_grows() {
        let mut picture = vec![0u8; 65536];
        for (i, pixel) in picture.iter_mut().enumerate() {
            *pixel = ((i / 256) / 16) as u8;
        }
        assert!(round_trip(&picture).len() < 65536 / 50);
        let mut state = 12345u32;
        let noise: Vec<u8> = (0..65536)
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 24) as u8
            })
            .collect();
        assert!(round_trip(&noise).len() <= 65536 + 65536 / 128 + 1);
    }

    #[test]
    fn cut_data_ends_the_output_without_a_panic() {
        let mut out = Vec::new();
        unpack(&[5, 1, 2], &mut out);
        assert_eq!(out, [1, 2]);
        out.clear();
        unpack(&[200], &mut out);
        assert!(out.is_empty());
    }
}
