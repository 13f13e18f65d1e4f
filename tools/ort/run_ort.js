#!/usr/bin/env node
// Reference executor: runs an ONNX model with onnxruntime-node on the CPU.
//
//   node tools/ort/run_ort.js [--as-written] [--batch-of N] [--threads N] [--time N] MODEL.onnx OUTDIR NAME=FILE.npy [NAME=FILE.npy ...]
//
// With --as-written onnxruntime's graph optimizations are off: a QDQ model
// runs as the ONNX operators define it (dequantize, the float operator,
// quantize) rather than on onnxruntime's fused integer kernels, whose results
// depend on the CPU (on x86 without VNNI their u8·s8 products saturate in
// 16 bits). The peer tests of integer semantics use it.
//
// With --threads N onnxruntime runs on N intra-op threads (and one inter-op
// thread); with --time N the model runs N more times after the first (the
// warm-up), and the median time of those runs is printed as "median_ms X".
//
// With --batch-of N every input is cut along axis 0 into slices of N rows that
// run one after the other (for models with a fixed batch); the outputs of the
// slices are concatenated along axis 0.
//
// Each NAME=FILE.npy binds a graph input to a .npy file. Every graph output is
// written as OUTDIR/<output name>.npy (same dtype and shape; '/' and '\' in a
// name become '_') and reported on stdout as one line "name dtype [d0,d1,...]".
// Any error (usage, missing file, bad .npy, ORT failure) prints a message on
// stderr and exits with status 1.
//
// .npy support: format versions 1, 2 and 3, C order only, little-endian, dtypes
// below. onnxruntime-node comes from tools/ort/node_modules (scripts/bootstrap.sh).
'use strict';
const fs = require('fs');
const path = require('path');

// npy descr <-> ORT type name, TypedArray constructor, element size.
const DTYPES = {
  '<f4': { ort: 'float32', Arr: Float32Array, size: 4 },
  '|i1': { ort: 'int8', Arr: Int8Array, size: 1 },
  '|u1': { ort: 'uint8', Arr: Uint8Array, size: 1 },
  '<i4': { ort: 'int32', Arr: Int32Array, size: 4 },
  '<i8': { ort: 'int64', Arr: BigInt64Array, size: 8 },
  '|b1': { ort: 'bool', Arr: Uint8Array, size: 1 },  // one byte per element, 0 or 1
};
const DESCR_OF_ORT = Object.fromEntries(Object.entries(DTYPES).map(([d, t]) => [t.ort, d]));
const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]);  // "\x93NUMPY"

class UsageError extends Error {}
const fail = (msg) => { throw new UsageError(msg); };

// Parses a .npy file into { descr, shape, data } (data: a fresh, aligned TypedArray).
function readNpy(file) {
  if (!fs.existsSync(file)) fail(`${file}: no such file`);
  const buf = fs.readFileSync(file);
  const bad = (why) => fail(`${file}: not a valid .npy file (${why})`);
  if (buf.length < 10 || !buf.subarray(0, 6).equals(MAGIC)) bad('missing \\x93NUMPY magic');
  const major = buf[6];
  let hlen, hstart;
  if (major === 1) { hlen = buf.readUInt16LE(8); hstart = 10; }
  else if (major === 2 || major === 3) {
    if (buf.length < 12) bad('truncated header');
    hlen = buf.readUInt32LE(8); hstart = 12;
  } else bad(`unsupported format version ${major}.${buf[7]}`);
  if (hstart + hlen > buf.length) bad('truncated header');
  const header = buf.toString(major === 3 ? 'utf8' : 'latin1', hstart, hstart + hlen);
  // The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (1, 8), }
  const descr = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(header);
  const order = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(header);
  const shapeM = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(header);
  if (!descr || !order || !shapeM) bad('header lacks descr, fortran_order or shape');
  if (order[1] === 'True') fail(`${file}: Fortran-order arrays are not supported (save it in C order)`);
  const type = DTYPES[descr[1]];
  if (!type) fail(`${file}: unsupported dtype '${descr[1]}' (supported: ${Object.keys(DTYPES).join(' ')})`);
  const parts = shapeM[1].split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (!parts.every((s) => /^\d+$/.test(s))) bad(`bad shape (${shapeM[1]})`);
  const shape = parts.map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const start = hstart + hlen, nbytes = count * type.size;
  if (buf.length - start !== nbytes) {
    bad(`data is ${buf.length - start} bytes, shape (${shape}) of ${descr[1]} needs ${nbytes}`);
  }
  // Copy into a new ArrayBuffer: the Buffer's offset need not be aligned for the TypedArray.
  const ab = new ArrayBuffer(nbytes);
  new Uint8Array(ab).set(buf.subarray(start, start + nbytes));
  const data = new type.Arr(ab);
  if (descr[1] === '|b1' && data.some((v) => v > 1)) bad('bool data holds values other than 0 and 1');
  return { descr: descr[1], shape, data };
}

// Writes a TypedArray with the given descr and shape as a .npy file (v1, or v2 when the header is huge).
function writeNpy(file, descr, shape, data) {
  const shapeStr = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeStr}, }`;
  let major = 1, prefix = 10;                         // magic(6) + version(2) + uint16 length
  if (dict.length + 1 + 63 >= 65536) { major = 2; prefix = 12; }   // uint32 length
  const pad = (64 - ((prefix + dict.length + 1) % 64)) % 64;        // total header: multiple of 64
  dict += ' '.repeat(pad) + '\n';
  const head = Buffer.alloc(prefix);
  MAGIC.copy(head, 0);
  head[6] = major; head[7] = 0;
  if (major === 1) head.writeUInt16LE(dict.length, 8); else head.writeUInt32LE(dict.length, 8);
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(dict, 'latin1'), body]));
}

// Runs `feeds` in slices of `n` rows along axis 0 and concatenates each output.
async function runSliced(ort, session, feeds, n) {
  const names = Object.keys(feeds);
  const rows = feeds[names[0]].dims[0];
  for (const k of names) if (feeds[k].dims[0] !== rows) fail('--batch-of: inputs differ in their leading dimension');
  if (rows % n) fail(`--batch-of ${n} does not divide the leading dimension ${rows}`);
  const parts = {};
  for (let r = 0; r < rows; r += n) {
    const slice = {};
    for (const k of names) {
      const t = feeds[k], per = t.data.length / rows;
      slice[k] = new ort.Tensor(t.type, t.data.slice(r * per, (r + n) * per), [n, ...t.dims.slice(1)]);
    }
    let out;
    try { out = await session.run(slice); } catch (e) { fail(`onnxruntime run failed: ${e.message}`); }
    for (const [k, t] of Object.entries(out)) (parts[k] = parts[k] || []).push(t);
  }
  const results = {};
  for (const [k, list] of Object.entries(parts)) {
    const data = new list[0].data.constructor(list.reduce((s, t) => s + t.data.length, 0));
    let at = 0;
    for (const t of list) { data.set(t.data, at); at += t.data.length; }
    results[k] = new ort.Tensor(list[0].type, data, [list[0].dims[0] * list.length, ...list[0].dims.slice(1)]);
  }
  return results;
}

/** A positive integer option's value. */
function count(flag, v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) fail(`${flag} needs a positive integer`);
  return n;
}

async function main(argv) {
  let batchOf = 0, asWritten = false, threads = 0, timeRuns = 0;
  for (;;) {
    if (argv[0] === '--as-written') {
      asWritten = true;
      argv = argv.slice(1);
    } else if (argv[0] === '--batch-of') {
      batchOf = count('--batch-of', argv[1]);
      argv = argv.slice(2);
    } else if (argv[0] === '--threads') {
      threads = count('--threads', argv[1]);
      argv = argv.slice(2);
    } else if (argv[0] === '--time') {
      timeRuns = count('--time', argv[1]);
      argv = argv.slice(2);
    } else {
      break;
    }
  }
  if (argv.length < 3) {
    fail('usage: node tools/ort/run_ort.js MODEL.onnx OUTDIR NAME=FILE.npy [NAME=FILE.npy ...]');
  }
  const [model, outdir, ...bindings] = argv;
  if (!fs.existsSync(model)) fail(`${model}: no such file`);
  let ort;
  try { ort = require('onnxruntime-node'); } catch (e) {
    fail(`cannot load onnxruntime-node (${e.message.split('\n')[0]}); run scripts/bootstrap.sh`);
  }

  // Read every input before starting ORT so file errors are reported first.
  const feeds = {};
  for (const b of bindings) {
    const eq = b.indexOf('=');
    if (eq <= 0 || eq === b.length - 1) fail(`bad input binding '${b}' (expected NAME=FILE.npy)`);
    const name = b.slice(0, eq);
    if (name in feeds) fail(`input '${name}' given twice`);
    const npy = readNpy(b.slice(eq + 1));
    feeds[name] = new ort.Tensor(DTYPES[npy.descr].ort, npy.data, npy.shape);
  }

  let session;
  try {
    const options = { executionProviders: ['cpu'] };
    if (asWritten) options.graphOptimizationLevel = 'disabled';
    if (threads) Object.assign(options, { intraOpNumThreads: threads, interOpNumThreads: 1 });
    session = await ort.InferenceSession.create(model, options);
  } catch (e) { fail(`${model}: onnxruntime cannot load the model: ${e.message}`); }
  for (const name of Object.keys(feeds)) {
    if (!session.inputNames.includes(name)) {
      fail(`'${name}' is not an input of ${model} (inputs: ${session.inputNames.join(', ')})`);
    }
  }
  const missing = session.inputNames.filter((n) => !(n in feeds));
  if (missing.length) fail(`no value given for input(s): ${missing.join(', ')}`);

  let results;
  if (batchOf) results = await runSliced(ort, session, feeds, batchOf);
  else try { results = await session.run(feeds); } catch (e) { fail(`onnxruntime run failed: ${e.message}`); }

  // Check every output first so nothing is written when one of them cannot be stored.
  for (const name of session.outputNames) {
    const t = results[name];
    if (!DESCR_OF_ORT[t.type]) fail(`output '${name}' has unsupported type ${t.type}`);
  }
  fs.mkdirSync(outdir, { recursive: true });
  for (const name of session.outputNames) {
    const t = results[name];
    const file = path.join(outdir, name.replace(/[/\\]/g, '_') + '.npy');
    writeNpy(file, DESCR_OF_ORT[t.type], t.dims, t.data);
    console.log(`${name} ${t.type} [${t.dims.join(',')}]`);
  }
  if (timeRuns) {  // the run above was the warm-up
    const ms = [];
    for (let i = 0; i < timeRuns; ++i) {
      const t0 = process.hrtime.bigint();
      await session.run(feeds);
      ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    ms.sort((a, b) => a - b);
    console.log(`median_ms ${ms[Math.floor(ms.length / 2)]}`);
  }
}

main(process.argv.slice(2)).catch((e) => {
  // Our own errors and system errors (e.code, e.g. ENOTDIR) need no stack trace.
  const plain = e instanceof UsageError || (e && e.code);
  console.error(`run_ort: ${plain ? e.message : (e && e.stack) || e}`);
  process.exit(1);
});
