//! raw-board-768-v1 in bulk: many rows into one output, every cell written exactly once.
//!
//! A row is 768 float32 values (3 KiB): twelve planes of 64 cells, each 1.0 or 0.0 (spec/features.md).
//! Extraction itself is a handful of bit operations; what costs is writing the bytes. So each 64-byte
//! line of output (16 cells = 16 bits of one plane) is made in a register from the plane's bits and
//! written once, with non-temporal (streaming) stores where the CPU has them: no zeroing pass, no row
//! built elsewhere and copied, no read of the old contents. Three writers, chosen at run time, give
//! identical bytes (tested against [`crate::features::raw_board_cells`] at every alignment):
//!
//! * x86-64 with AVX-512F: one masked move makes a line; lines are re-aligned to 64-byte boundaries
//!   (`valignd` of two neighbours) and streamed whole, with masked plain stores for the partial first
//!   and last line;
//! * other x86-64 with a 16-byte aligned output: four cells per 16-byte streaming store from a
//!   16-entry table (SSE2, part of x86-64);
//! * anything else: eight cells per copy from a 256-entry table, plain stores.

use crate::board::Pos;

/// The twelve planes of `p` from colour `c` (1 = white), in schema order (own P N B R Q K, then the
/// opponent's): bit `i` of plane `k` is cell `k * 64 + i`. Seen from black the ranks are mirrored
/// (square `sq ^ 56`), which is a byte swap of the board.
#[inline(always)]
pub fn planes(p: &Pos, c: usize) -> [u64; 12] {
    let mut out = [0u64; 12];
    for (half, side) in [(0usize, c), (1, 1 - c)] {
        for t in 0..6 {
            let board = p.boards[side][t + 1];
            out[half * 6 + t] = if c == 1 { board } else { board.swap_bytes() };
        }
    }
    out
}

/// Cell values of every byte of a plane: `BYTE_CELLS[b][i]` is 1.0 when bit `i` of `b` is set.
static BYTE_CELLS: [[f32; 8]; 256] = cell_table::<256, 8>();

/// Cell values of every nibble of a plane (the 16-byte writer's table).
#[cfg(target_arch = "x86_64")]
static NIBBLE_CELLS: [[f32; 4]; 16] = cell_table::<16, 4>();

const fn cell_table<const N: usize, const BITS: usize>() -> [[f32; BITS]; N] {
    let mut table = [[0f32; BITS]; N];
    let mut value = 0;
    while value < N {
        let mut bit = 0;
        while bit < BITS {
            if (value >> bit) & 1 != 0 {
                table[value][bit] = 1.0;
            }
            bit += 1;
        }
        value += 1;
    }
    table
}

/// Write `n` rows (`planes_of(i)` for row `i`) into `out`, which holds exactly `n * 768` values;
/// whatever `out` held before is overwritten.
pub fn fill(n: usize, planes_of: impl Fn(usize) -> [u64; 12], out: &mut [f32]) {
    assert_eq!(out.len(), n * 768, "raw-board output of the wrong size");
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: AVX-512F is present; `out` holds n * 768 values (asserted above).
            unsafe { avx512::fill(n, &planes_of, out) };
            return;
        }
        if (out.as_ptr() as usize) % 16 == 0 {
            // SAFETY: `out` is 16-byte aligned and holds n * 768 values.
            unsafe { fill_sse2(n, &planes_of, out) };
            return;
        }
    }
    fill_table(n, &planes_of, out);
}

/// The portable writer: eight cells per copy, plain stores.
pub fn fill_table(n: usize, planes_of: &impl Fn(usize) -> [u64; 12], out: &mut [f32]) {
    for (i, row) in out.chunks_exact_mut(768).enumerate().take(n) {
        for (bits, plane) in planes_of(i).into_iter().zip(row.chunks_exact_mut(64)) {
            for (byte, cells) in bits.to_le_bytes().into_iter().zip(plane.chunks_exact_mut(8)) {
                cells.copy_from_slice(&BYTE_CELLS[usize::from(byte)]);
            }
        }
    }
}

/// The SSE2 writer: four cells per 16-byte streaming store. `out` must be 16-byte aligned.
#[cfg(target_arch = "x86_64")]
unsafe fn fill_sse2(n: usize, planes_of: &impl Fn(usize) -> [u64; 12], out: &mut [f32]) {
    use std::arch::x86_64::{_mm_loadu_ps, _mm_sfence, _mm_stream_ps};
    let mut at = out.as_mut_ptr();
    for i in 0..n {
        for bits in planes_of(i) {
            for nibble in 0..16 {
                let cells = &NIBBLE_CELLS[((bits >> (4 * nibble)) & 15) as usize];
                _mm_stream_ps(at, _mm_loadu_ps(cells.as_ptr()));
                at = at.add(4);
            }
        }
    }
    _mm_sfence();
}

#[cfg(target_arch = "x86_64")]
pub mod avx512 {
    //! The AVX-512F writer. The output is a run of `n * 48` lines of 16 cells; when it does not start
    //! on a 64-byte boundary (numpy aligns to 16 bytes), each aligned 64-byte span holds the last `M`
    //! cells of one line and the first `16 - M` of the next, joined with `valignd` before the store.

    use std::arch::x86_64::{
        __m512, _mm512_alignr_epi32, _mm512_castps_si512, _mm512_castsi512_ps, _mm512_mask_storeu_ps,
        _mm512_maskz_mov_ps, _mm512_set1_ps, _mm512_stream_ps, _mm_sfence,
    };

    /// Write the rows; `out.len() == n * 768`. SAFETY: the CPU has AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn fill(n: usize, planes_of: &impl Fn(usize) -> [u64; 12], out: &mut [f32]) {
        let shift = (out.as_ptr() as usize / 4) % 16; // cells before the first 64-byte boundary: 16 - shift
        macro_rules! by_shift {
            ($($m:literal)*) => {
                match shift {
                    0 => aligned(n, planes_of, out),
                    $($m => shifted::<$m, { 16 - $m }>(n, planes_of, out),)*
                    _ => unreachable!(),
                }
            };
        }
        by_shift!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        _mm_sfence();
    }

    #[target_feature(enable = "avx512f")]
    fn line(bits: u64, part: u32) -> __m512 {
        _mm512_maskz_mov_ps((bits >> (16 * part)) as u16, _mm512_set1_ps(1.0))
    }

    #[target_feature(enable = "avx512f")]
    unsafe fn aligned(n: usize, planes_of: &impl Fn(usize) -> [u64; 12], out: &mut [f32]) {
        let mut at = out.as_mut_ptr();
        for i in 0..n {
            for bits in planes_of(i) {
                for part in 0..4 {
                    _mm512_stream_ps(at, line(bits, part));
                    at = at.add(16);
                }
            }
        }
    }

    /// `M` = the output's offset from a 64-byte boundary in cells (1..=15), `R` = 16 - M.
    #[target_feature(enable = "avx512f")]
    unsafe fn shifted<const M: usize, const R: i32>(n: usize, planes_of: &impl Fn(usize) -> [u64; 12],
                                                    out: &mut [f32]) {
        if n == 0 {
            return;
        }
        let base = out.as_mut_ptr();
        let mut previous: Option<__m512> = None;
        let mut at = base.add(R as usize); // the first 64-byte boundary
        for i in 0..n {
            for bits in planes_of(i) {
                for part in 0..4 {
                    let current = line(bits, part);
                    match previous {
                        // the first line: its first R cells, before the first boundary
                        None => _mm512_mask_storeu_ps(base, (1u16 << R) - 1, current),
                        Some(before) => {
                            let joined = _mm512_alignr_epi32::<R>(_mm512_castps_si512(current),
                                                                  _mm512_castps_si512(before));
                            _mm512_stream_ps(at, _mm512_castsi512_ps(joined));
                            at = at.add(16);
                        }
                    }
                    previous = Some(current);
                }
            }
        }
        // the last line's last M cells, after the last boundary
        let last = _mm512_castps_si512(previous.expect("n > 0"));
        _mm512_mask_storeu_ps(at, (1u16 << M) - 1, _mm512_castsi512_ps(_mm512_alignr_epi32::<R>(last, last)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse;
    use crate::features::raw_board_cells;

    const FENS: [&[u8]; 4] = [
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
        b"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq -",
        b"8/8/8/8/8/8/8/8 w - -",
        b"7k/P7/8/8/8/8/7p/K7 b - -",
    ];

    fn expected(n: usize) -> Vec<f32> {
        let mut values = vec![0f32; n * 768];
        for i in 0..n {
            let pos = parse(FENS[i % 4]).unwrap();
            raw_board_cells(&pos, i % 3 % 2, |cell| values[i * 768 + cell] = 1.0);
        }
        values
    }

    fn planes_of(i: usize) -> [u64; 12] {
        planes(&parse(FENS[i % 4]).unwrap(), i % 3 % 2)
    }

    /// Every writer, at every offset from a 64-byte boundary, into a buffer full of other values, writes
    /// exactly the cells of the reference scatter and nothing outside its rows.
    #[test]
    fn every_writer_equals_the_scatter_at_every_alignment() {
        for n in [0usize, 1, 2, 7] {
            let want = expected(n);
            for offset in 0..16 {
                let writers: [(&str, fn(usize, &mut [f32])); 4] = [
                    ("dispatch", |n, out| fill(n, planes_of, out)),
                    ("table", |n, out| fill_table(n, &planes_of, out)),
                    ("sse2", |n, out| {
                        if (out.as_ptr() as usize) % 16 == 0 {
                            unsafe { fill_sse2(n, &planes_of, out) }
                        } else {
                            fill_table(n, &planes_of, out)
                        }
                    }),
                    ("avx512", |n, out| {
                        if std::is_x86_feature_detected!("avx512f") {
                            unsafe { avx512::fill(n, &planes_of, out) }
                        } else {
                            fill_table(n, &planes_of, out)
                        }
                    }),
                ];
                for (name, write) in writers {
                    let mut buffer = vec![7.5f32; n * 768 + 64];
                    let start = (16 - (buffer.as_ptr() as usize / 4) % 16) % 16 + offset;
                    write(n, &mut buffer[start..start + n * 768]);
                    assert!(buffer[..start].iter().all(|&v| v == 7.5), "{name} wrote before the rows");
                    assert!(buffer[start + n * 768..].iter().all(|&v| v == 7.5), "{name} wrote after the rows");
                    let got: Vec<u32> = buffer[start..start + n * 768].iter().map(|v| v.to_bits()).collect();
                    let want: Vec<u32> = want.iter().map(|v| v.to_bits()).collect();
                    assert!(got == want, "{name} differs at offset {offset} with {n} rows");
                }
            }
        }
    }
}
