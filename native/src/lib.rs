//! `dicechess_native`: the optional native accelerator of dicechess-contract.
//!
//! DFEN parsing and the seven feature extractors on `u64` bitboards, bit-identical with the Python
//! reference in `contract.features` (which stays the specification; see docs/performance.md). The
//! kit imports this module through `contract.features.backend` and never needs it: every entry point
//! answers "use the Python path" (status 1) for any input it does not take natively, and the kit then
//! computes that row, refusal message included, in Python. An allocation it cannot make raises
//! MemoryError (never Rust's abort); a numpy integer in a hand-made Position is left to Python too.

mod board;
mod capture;
mod features;
mod movegen;
mod rawboard;
mod tables;

use std::alloc::{alloc_zeroed, Layout};
use std::collections::TryReserveError;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};

use board::{Pos, Side};

/// Status of a row: 0 = filled natively, 1 = computed by the Python path instead.
const NATIVE: u8 = 0;
const PYTHON: u8 = 1;

fn width_of(code: usize) -> PyResult<usize> {
    features::WIDTHS.get(code).copied().ok_or_else(|| PyValueError::new_err(format!("no native schema code {code}")))
}

const RAW_BOARD: usize = 6;

// -- allocations that can fail ---------------------------------------------------------------------
// Every buffer whose size the caller chooses (a row per input, a copy of each text) is allocated
// fallibly: an allocation the process cannot make raises MemoryError, as numpy does on the Python
// path, instead of Rust's abort (which no `except` can catch).

/// An allocation that failed: its size in bytes (None: the size overflows) and what it was for. A plain
/// Rust value (the crate's own tests run without Python), made a MemoryError at the boundary.
#[derive(Debug)]
struct NoMemory {
    bytes: Option<usize>,
    what: String,
}

impl From<NoMemory> for PyErr {
    fn from(failed: NoMemory) -> PyErr {
        match failed.bytes {
            Some(bytes) => PyMemoryError::new_err(format!("Unable to allocate {bytes} bytes for {}", failed.what)),
            None => PyMemoryError::new_err(format!("Unable to allocate {}: its size overflows", failed.what)),
        }
    }
}

/// `rows * width` float32 zeros (the allocator's zeroed pages, as `vec!` would), or MemoryError.
fn zeroed_f32(rows: usize, width: usize) -> Result<Vec<f32>, NoMemory> {
    let failed = |bytes| NoMemory { bytes, what: format!("an array with shape ({rows}, {width}) and data type float32") };
    let len = rows.checked_mul(width).ok_or_else(|| failed(None))?;
    if len == 0 {
        return Ok(Vec::new());
    }
    let layout = Layout::array::<f32>(len).map_err(|_| failed(None))?;
    // SAFETY: the layout's size is not zero; all-zero bytes are the float32 0.0; the pointer, when not
    // null, comes from the global allocator with exactly the layout of a Vec<f32> of capacity `len`.
    let values = unsafe {
        let pointer = alloc_zeroed(layout).cast::<f32>();
        if pointer.is_null() {
            return Err(failed(Some(layout.size())));
        }
        Vec::from_raw_parts(pointer, len, len)
    };
    Ok(values)
}

/// The items of `items` (of which there are `len`) in a Vec allocated fallibly.
fn collected<T>(len: usize, items: impl Iterator<Item = T>) -> Result<Vec<T>, TryReserveError> {
    let mut out = Vec::new();
    out.try_reserve_exact(len)?;
    out.extend(items.take(len));
    Ok(out)
}

fn no_memory_for<T>(len: usize, what: &str) -> impl FnOnce(TryReserveError) -> NoMemory + '_ {
    move |_| NoMemory { bytes: len.checked_mul(std::mem::size_of::<T>()), what: what.to_owned() }
}

/// The colour to extract for: b'w' white (1), b'b' black (0), anything else the side to move.
fn colour_of(side: u8, pos: &Pos) -> usize {
    match side {
        b'w' => 1,
        b'b' => 0,
        _ => usize::from(pos.turn),
    }
}

/// Parse and extract many rows with the GIL released: `(fen bytes, side)` where side is b'w', b'b' or
/// b'-' (the FEN's side to move). Unparsable rows get status PYTHON and a row of zeros.
fn run_fens(width: usize, texts: &[Option<Vec<u8>>], sides: &[u8], values: &mut [f32], status: &mut [u8],
            code: usize) {
    for (i, text) in texts.iter().enumerate() {
        let Some(bytes) = text else { continue };
        let Some(pos) = board::parse(bytes) else { continue };
        features::extract(code, &pos, colour_of(sides[i], &pos), &mut values[i * width..(i + 1) * width]);
        status[i] = NATIVE;
    }
}

/// `n` statuses, all PYTHON, or MemoryError.
fn statuses(n: usize) -> Result<Vec<u8>, NoMemory> {
    let mut status = Vec::new();
    status.try_reserve_exact(n).map_err(no_memory_for::<u8>(n, "the row statuses"))?;
    status.resize(n, PYTHON);
    Ok(status)
}

fn to_arrays<'py>(py: Python<'py>, n: usize, width: usize, values: Vec<f32>, status: Vec<u8>)
    -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<u8>>)> {
    let matrix = Array2::from_shape_vec((n, width), values).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((matrix.into_pyarray(py), PyArray1::from_vec(py, status)))
}

/// The text of `item` when it is an ASCII `str` (`Ok(None)` when not), copied fallibly.
fn ascii_bytes(item: &Bound<'_, PyAny>) -> PyResult<Option<Vec<u8>>> {
    let Some(text) = item.cast::<PyString>().ok().and_then(|s| s.to_str().ok().map(str::as_bytes)) else {
        return Ok(None);
    };
    if !text.is_ascii() {
        return Ok(None);
    }
    let mut copy = Vec::new();
    copy.try_reserve_exact(text.len()).map_err(no_memory_for::<u8>(text.len(), "a copy of a FEN"))?;
    copy.extend_from_slice(text);
    Ok(Some(copy))
}

/// The ASCII texts of `fens` (None for an item that is not one), copied fallibly.
fn ascii_texts(fens: &Bound<'_, PyList>) -> PyResult<Vec<Option<Vec<u8>>>> {
    let n = fens.len();
    let mut texts = Vec::new();
    texts.try_reserve_exact(n).map_err(no_memory_for::<Option<Vec<u8>>>(n, "the FEN texts"))?;
    for item in fens.iter() {
        texts.push(ascii_bytes(&item)?);
    }
    Ok(texts)
}

/// `extract_fens(code, fens, sides) -> (float32 [n, width], uint8 [n] status)`.
#[pyfunction]
fn extract_fens<'py>(py: Python<'py>, code: usize, fens: &Bound<'py, PyList>, sides: &[u8])
    -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<u8>>)> {
    let width = width_of(code)?;
    if sides.len() != fens.len() {
        return Err(PyValueError::new_err("extract_fens: one side per FEN"));
    }
    let texts = ascii_texts(fens)?;
    let n = texts.len();
    if code == RAW_BOARD {
        let parsed = py.detach(|| {
            collected(n, texts.iter().zip(sides).map(|(t, &side)| {
                let pos = board::parse(t.as_deref()?)?;
                Some((pos, colour_of(side, &pos)))
            }))
        }).map_err(no_memory_for::<Option<(Pos, usize)>>(n, "the parsed positions"))?;
        return raw_board_arrays(py, &parsed);
    }
    let mut values = zeroed_f32(n, width)?;
    let mut status = statuses(n)?;
    py.detach(|| run_fens(width, &texts, sides, &mut values, &mut status, code));
    to_arrays(py, n, width, values, status)
}

/// raw-board-768-v1 of parsed rows (`None`: status PYTHON and a row of zeros) into a new array, written
/// once by [`rawboard::fill`] with the GIL released. (A fresh output's page faults dominate a single
/// call; numpy's allocator, which asks for huge pages at this size, made later calls faster but the
/// first call of a process two to three times slower, so the array is an ordinary allocation.)
fn raw_board_arrays<'py>(py: Python<'py>, parsed: &[Option<(Pos, usize)>])
    -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<u8>>)> {
    let n = parsed.len();
    let mut values = zeroed_f32(n, 768)?;
    let mut status = statuses(n)?;
    py.detach(|| {
        rawboard::fill(n, |i| parsed[i].as_ref().map_or([0; 12], |(pos, colour)| rawboard::planes(pos, *colour)),
                       &mut values);
    });
    for (slot, p) in status.iter_mut().zip(parsed) {
        if p.is_some() {
            *slot = NATIVE;
        }
    }
    to_arrays(py, n, 768, values, status)
}

/// `item` when it is a Python `int` (or a subclass, such as `bool`): what the reference computes on. A
/// numpy integer (not an `int`) is left to the Python path, so that both backends answer alike.
fn python_int<'a, 'py>(item: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyInt>> {
    item.cast::<PyInt>().ok()
}

fn side_boards(side: &Bound<'_, PyAny>) -> Option<Side> {
    let tuple = side.cast::<PyTuple>().ok()?;
    if tuple.len() != 7 {
        return None;
    }
    let mut out = [0u64; 7];
    for (slot, item) in out.iter_mut().zip(tuple.iter()) {
        *slot = python_int(&item)?.extract::<u64>().ok()?;
    }
    Some(out)
}

/// The native form of a `contract.features.position.Position`, or None when its fields are not a
/// consistent placement on 64-bit boards (the Python path then takes it as it is).
fn position_of(obj: &Bound<'_, PyAny>) -> Option<Pos> {
    let boards_obj = obj.getattr("boards").ok()?;
    let boards_tuple = boards_obj.cast::<PyTuple>().ok()?;
    if boards_tuple.len() != 2 {
        return None;
    }
    let boards = [side_boards(&boards_tuple.get_item(0).ok()?)?, side_boards(&boards_tuple.get_item(1).ok()?)?];
    if !Pos::consistent(&boards) {
        return None;
    }
    let castling = python_int(&obj.getattr("castling").ok()?)?.extract::<i64>().ok()?;
    let ep = python_int(&obj.getattr("ep").ok()?)?.extract::<u64>().ok()?;
    let turn = obj.getattr("turn").ok()?.extract::<bool>().ok()?;
    Some(Pos { boards, turn, castling: (castling & 15) as u32, ep })
}

/// `extract_positions(code, positions, colours) -> (float32 [n, width], uint8 [n] status)`; colours
/// holds 1 (white) or 0 (black) per position.
#[pyfunction]
fn extract_positions<'py>(py: Python<'py>, code: usize, positions: &Bound<'py, PyList>, colours: &[u8])
    -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<u8>>)> {
    let width = width_of(code)?;
    if colours.len() != positions.len() {
        return Err(PyValueError::new_err("extract_positions: one colour per position"));
    }
    let n = positions.len();
    let parsed = collected(n, positions.iter().zip(colours).map(|(item, &c)| {
        position_of(&item).map(|pos| (pos, usize::from(c != 0)))
    })).map_err(no_memory_for::<Option<(Pos, usize)>>(n, "the positions"))?;
    if code == RAW_BOARD {
        return raw_board_arrays(py, &parsed);
    }
    let mut values = zeroed_f32(n, width)?;
    let mut status = statuses(n)?;
    py.detach(|| {
        for (i, p) in parsed.iter().enumerate() {
            if let Some((pos, colour)) = p {
                features::extract(code, pos, *colour, &mut values[i * width..(i + 1) * width]);
                status[i] = NATIVE;
            }
        }
    });
    to_arrays(py, n, width, values, status)
}

/// Natively parsed positions (for timing extraction on parsed positions, as the engine is timed).
#[pyclass(frozen)]
struct ParsedBatch {
    positions: Vec<Pos>,
}

#[pymethods]
impl ParsedBatch {
    fn __len__(&self) -> usize {
        self.positions.len()
    }

    /// `extract(code, sides, out=None)`: float32 [n, width]; sides as in `extract_fens`. With `out`
    /// (a C-contiguous float32 [n, width] array, e.g. reused across batches) the rows are written there.
    #[pyo3(signature = (code, sides, out=None))]
    fn extract<'py>(&self, py: Python<'py>, code: usize, sides: &[u8], out: Option<Bound<'py, PyArray2<f32>>>)
        -> PyResult<Bound<'py, PyArray2<f32>>> {
        let width = width_of(code)?;
        let n = self.positions.len();
        if sides.len() != n {
            return Err(PyValueError::new_err("ParsedBatch.extract: one side per position"));
        }
        let fill = |values: &mut [f32]| {
            if code == RAW_BOARD {
                // every cell written once, line by line (memory-bound: see rawboard.rs)
                let colour = |i: usize| colour_of(sides[i], &self.positions[i]);
                rawboard::fill(n, |i| rawboard::planes(&self.positions[i], colour(i)), values);
                return;
            }
            for (i, (pos, row)) in self.positions.iter().zip(values.chunks_exact_mut(width)).enumerate() {
                row.fill(0.0);
                features::extract(code, pos, colour_of(sides[i], pos), row);
            }
        };
        if let Some(array) = out {
            if !array.is_c_contiguous() {  // as_slice_mut grants Fortran order too: rows would land as columns
                return Err(PyValueError::new_err("out must be C-contiguous and aligned"));
            }
            let mut view = array.try_readwrite().map_err(|e| PyValueError::new_err(e.to_string()))?;
            let values = view.as_slice_mut().map_err(|_| PyValueError::new_err("out must be C-contiguous and aligned"))?;
            if values.len() != n * width || array.shape() != [n, width] {
                return Err(PyValueError::new_err(format!("out must have the shape [{n}, {width}]")));
            }
            py.detach(|| fill(values));
            drop(view);
            return Ok(array);
        }
        let mut values = zeroed_f32(n, width)?;
        py.detach(|| fill(&mut values));
        let matrix = Array2::from_shape_vec((n, width), values).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(matrix.into_pyarray(py))
    }
}

/// `parse_fens(fens) -> ParsedBatch`; ValueError naming the first FEN it does not take natively.
#[pyfunction]
fn parse_fens(py: Python<'_>, fens: &Bound<'_, PyList>) -> PyResult<ParsedBatch> {
    let texts = ascii_texts(fens)?;
    let n = texts.len();
    let parsed = py.detach(|| collected(n, texts.iter().map(|t| t.as_deref().and_then(board::parse))))
        .map_err(no_memory_for::<Option<Pos>>(n, "the parsed positions"))?;
    drop(texts);
    let mut positions = Vec::new();
    positions.try_reserve_exact(n).map_err(no_memory_for::<Pos>(n, "the parsed positions"))?;
    for (i, pos) in parsed.into_iter().enumerate() {
        positions.push(pos.ok_or_else(|| PyValueError::new_err(format!("FEN {i} is not parsed natively")))?);
    }
    Ok(ParsedBatch { positions })
}

/// `accepts(fen) -> bool`: does the native parser take this text (the Python parser then does too)?
#[pyfunction]
fn accepts(fen: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(ascii_bytes(fen)?.is_some_and(|b| board::parse(&b).is_some()))
}

#[pymodule]
fn dicechess_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("WIDTHS", features::WIDTHS.to_vec())?;
    m.add("EXTRACTORS", features::EXTRACTORS.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(extract_fens, m)?)?;
    m.add_function(wrap_pyfunction!(extract_positions, m)?)?;
    m.add_function(wrap_pyfunction!(parse_fens, m)?)?;
    m.add_function(wrap_pyfunction!(accepts, m)?)?;
    m.add_class::<ParsedBatch>()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_that_cannot_be_allocated_is_an_error_never_an_abort() {
        assert!(zeroed_f32(usize::MAX, 768).is_err()); // rows * width overflows
        assert!(zeroed_f32(usize::MAX / 4 + 1, 1).is_err()); // no layout has that many bytes
        assert!(zeroed_f32(1 << 46, 768).is_err()); // 2^56 bytes: more than any address space
        assert!(statuses(usize::MAX).is_err());
        assert!(collected(usize::MAX, std::iter::repeat(0u64)).is_err());
    }

    #[test]
    fn an_output_that_can_be_allocated_is_zeros_of_the_size_asked() {
        assert_eq!(zeroed_f32(3, 7).unwrap(), vec![0f32; 21]);
        assert!(zeroed_f32(0, 768).unwrap().is_empty() && zeroed_f32(5, 0).unwrap().is_empty());
        assert_eq!(statuses(4).unwrap(), vec![PYTHON; 4]);
        assert_eq!(collected(3, 1..).unwrap(), vec![1, 2, 3]);
    }
}
