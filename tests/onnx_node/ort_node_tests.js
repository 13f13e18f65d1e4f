#!/usr/bin/env node
// Runs the ONNX backend node tests through onnxruntime-node.
//
//   node tests/onnx_node/ort_node_tests.js OUTDIR RESULT.json
//
// OUTDIR is what tests/onnx_node/gen_node_tests.py produced. For every case
// OUTDIR/node/test_*/ whose case.json says "plain": true, runs model.onnx on the
// CPU with the test_data_set_0/in_*.npy inputs and compares each output with
// test_data_set_0/out_*.npy: shapes and dtypes must match, float32 and float64 values must
// satisfy |a-b| <= 1e-4 + 1e-3*|b| (float16: 1e-3 + 4e-3*|b|; NaN matches NaN), integers and bools must be
// equal. Writes RESULT.json as {"<case>": "pass" | "fail" | "error"} (sorted by
// case name), prints one line per non-passing case and a final
// "N passed, N failed, N errors". "error" means the case could not be read, or
// ORT could not load or run the model; no single case stops the run. Exit
// status: 0 when the run completed (whatever the results), 1 on usage errors.
//
// onnxruntime-node is loaded once from tools/ort/node_modules.
'use strict';
const fs = require('fs');
const path = require('path');

const ATOL = 1e-4, RTOL = 1e-3;

// npy descr -> ORT tensor type and TypedArray (same set as tools/ort/run_ort.js).
const NPY_TYPES = {
  '<f4': { ort: 'float32', Arr: Float32Array, size: 4 },
  '|i1': { ort: 'int8', Arr: Int8Array, size: 1 },
  '|u1': { ort: 'uint8', Arr: Uint8Array, size: 1 },
  '<i4': { ort: 'int32', Arr: Int32Array, size: 4 },
  '<i8': { ort: 'int64', Arr: BigInt64Array, size: 8 },
  '|b1': { ort: 'bool', Arr: Uint8Array, size: 1 },
  '<f8': { ort: 'float64', Arr: Float64Array, size: 8 },
  '<f2': { ort: 'float16', Arr: Uint16Array, size: 2 },  // float16 travels as its bits
  '<i2': { ort: 'int16', Arr: Int16Array, size: 2 },
  '<u2': { ort: 'uint16', Arr: Uint16Array, size: 2 },
};

// The value of float16 bits.
function halfToNumber(h) {
  const e = (h >> 10) & 31, m = h & 1023, sign = h & 32768 ? -1 : 1;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1 + m / 1024) * 2 ** (e - 15);
}

// Tolerance per float type: float16 allows a few of its ulps (computing in
// float32 and rounding once may differ from rounding after every step).
const TOLERANCE = { float32: [ATOL, RTOL], float64: [ATOL, RTOL], float16: [1e-3, 4e-3] };

// Reads a little-endian, C-order .npy file (as numpy.save writes it) into
// { type: ORT type name, shape: [..], data: TypedArray }. Throws on anything else.
function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const v2 = buf[6] >= 2;
  const hlen = v2 ? buf.readUInt32LE(8) : buf.readUInt16LE(8);
  const start = (v2 ? 12 : 10) + hlen;
  const header = buf.toString('latin1', v2 ? 12 : 10, start);
  const descr = /'descr':\s*'([^']*)'/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !shape || /'fortran_order':\s*True/.test(header)) throw new Error(`${file}: unsupported header ${header.trim()}`);
  const t = NPY_TYPES[descr[1]];
  if (!t) throw new Error(`${file}: unsupported dtype ${descr[1]}`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  const nbytes = dims.reduce((a, b) => a * b, 1) * t.size;
  if (buf.length - start !== nbytes) throw new Error(`${file}: expected ${nbytes} data bytes, found ${buf.length - start}`);
  // Copy into a fresh ArrayBuffer: the data offset need not be aligned for the TypedArray.
  const ab = new ArrayBuffer(nbytes);
  new Uint8Array(ab).set(buf.subarray(start));
  return { type: t.ort, shape: dims, data: new t.Arr(ab) };
}

// Compares an ORT output tensor with the expected npy; returns null when equal, else why not.
function compare(actual, expected) {
  if (actual.type !== expected.type) return `type ${actual.type}, expected ${expected.type}`;
  const adims = Array.from(actual.dims, Number);
  if (adims.join(',') !== expected.shape.join(',')) return `shape [${adims}], expected [${expected.shape}]`;
  const a = actual.data, b = expected.data;
  if (a.length !== b.length) return `${a.length} elements, expected ${b.length}`;
  let bad = 0, first = -1;
  for (let i = 0; i < b.length; i++) {
    let ok;
    const tol = TOLERANCE[expected.type];
    if (tol) {
      const x = expected.type === 'float16' ? halfToNumber(a[i]) : a[i];
      const y = expected.type === 'float16' ? halfToNumber(b[i]) : b[i];
      ok = x === y || (Number.isNaN(x) && Number.isNaN(y)) || Math.abs(x - y) <= tol[0] + tol[1] * Math.abs(y);
    } else {
      ok = a[i] === b[i];  // int64 compares BigInt with BigInt; bool is 0/1 in a Uint8Array
    }
    if (!ok) { bad++; if (first < 0) first = i; }
  }
  return bad ? `${bad}/${b.length} elements differ, first at ${first}: ${a[first]} vs ${b[first]}` : null;
}

// Runs one case; returns [result, detail]. Never throws.
async function runCase(ort, caseDir) {
  let info, feeds = {}, expected = {};
  const dataDir = path.join(caseDir, 'test_data_set_0');
  try {
    info = JSON.parse(fs.readFileSync(path.join(caseDir, 'case.json'), 'utf8'));
    if (!info.plain) return [null, 'not plain'];
    for (const v of info.inputs) {
      const n = readNpy(path.join(dataDir, v.npy));
      feeds[v.name] = new ort.Tensor(n.type, n.data, n.shape);
    }
    for (const v of info.outputs) expected[v.name] = readNpy(path.join(dataDir, v.npy));
  } catch (e) { return ['error', `cannot read case: ${e.message}`]; }

  let session, results;
  try {
    session = await ort.InferenceSession.create(path.join(caseDir, 'model.onnx'),
      { executionProviders: ['cpu'], logSeverityLevel: 4, intraOpNumThreads: 1 });
  } catch (e) { return ['error', `load: ${e.message.split('\n')[0]}`]; }
  try {
    results = await session.run(feeds);
  } catch (e) {
    return ['error', `run: ${e.message.split('\n')[0]}`];
  } finally {
    await session.release().catch(() => {});
  }
  const why = [];
  for (const name of Object.keys(expected)) {
    if (!(name in results)) { why.push(`${name}: missing`); continue; }
    const diff = compare(results[name], expected[name]);
    if (diff) why.push(`${name}: ${diff}`);
  }
  return why.length ? ['fail', why.join('; ')] : ['pass', ''];
}

async function main(argv) {
  if (argv.length !== 2) {
    console.error('usage: node tests/onnx_node/ort_node_tests.js OUTDIR RESULT.json');
    return 1;
  }
  const [outdir, resultFile] = argv;
  const nodeDir = path.join(outdir, 'node');
  if (!fs.existsSync(nodeDir)) {
    console.error(`${nodeDir}: no such directory (run tests/onnx_node/gen_node_tests.py first)`);
    return 1;
  }
  let ort;
  try {
    ort = require(path.join(__dirname, '..', '..', 'tools', 'ort', 'node_modules', 'onnxruntime-node'));
  } catch (e) {
    console.error(`cannot load onnxruntime-node (${e.message.split('\n')[0]}); run scripts/bootstrap.sh`);
    return 1;
  }
  ort.env.logLevel = 'error';

  const t0 = Date.now();
  const cases = fs.readdirSync(nodeDir).filter((d) => d.startsWith('test_')).sort();
  const result = {}, counts = { pass: 0, fail: 0, error: 0 };
  for (const name of cases) {
    const [res, detail] = await runCase(ort, path.join(nodeDir, name));
    if (!res) continue;  // not a plain case
    result[name] = res;
    counts[res]++;
    if (res !== 'pass') console.log(`${res.toUpperCase()} ${name}: ${detail}`);
  }
  fs.writeFileSync(resultFile, JSON.stringify(result, null, 1) + '\n');
  console.log(`${counts.pass} passed, ${counts.fail} failed, ${counts.error} errors ` +
              `(${Object.keys(result).length} plain cases of ${cases.length}, ` +
              `${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return 0;
}

main(process.argv.slice(2)).then((rc) => process.exit(rc), (e) => {
  console.error(`ort_node_tests: ${(e && e.stack) || e}`);
  process.exit(1);
});
