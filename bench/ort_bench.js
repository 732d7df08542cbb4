// Times ONNX Runtime (onnxruntime-node, CPU execution provider) on one
// exported benchmark model (bench/export.py's model.onnx, input_<k>.npy) and
// prints one JSON object like `ptera bench --json` (times_ms in call order,
// median_ms, p10_ms, p90_ms, min_ms, runs, threads); the outputs of the last
// call go to OUT_DIR/output_<k>.npy (float32) for the error check.
//
// usage: node ort_bench.js ORT_MODULE_DIR MODEL_DIR OUT_DIR THREADS WARMUP RUNS
'use strict';
const fs = require('fs');
const path = require('path');

const [ortDir, modelDir, outDir, threadsArg, warmupArg, runsArg] = process.argv.slice(2);
const ort = require(path.join(ortDir, 'node_modules', 'onnxruntime-node'));
const threads = Number(threadsArg), warmup = Number(warmupArg), runs = Number(runsArg);

// .npy (version 1/2, little-endian, C order): float32, int64, int32.
function readNpy(file) {
  const b = fs.readFileSync(file);
  if (b.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(file + ': not a .npy file');
  const major = b[6];
  const hlen = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + hlen;
  const header = b.toString('latin1', major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(file + ': Fortran order');
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim())
    .filter(s => s.length).map(Number);
  const body = b.subarray(start);
  const copy = (Ctor) => new Ctor(body.buffer.slice(body.byteOffset, body.byteOffset + body.length));
  const kinds = {'<f4': ['float32', Float32Array], '<i8': ['int64', BigInt64Array],
                 '<i4': ['int32', Int32Array]};
  if (!kinds[descr]) throw new Error(file + ': unsupported dtype ' + descr);
  return new ort.Tensor(kinds[descr][0], copy(kinds[descr][1]), shape);
}

function writeNpyF32(file, data, dims) {
  const shape = '(' + dims.map(d => d + ', ').join('') + ')';
  let header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ', }';
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const h = Buffer.alloc(10);
  h.write('\x93NUMPY', 0, 'latin1');
  h[6] = 1; h[7] = 0;
  h.writeUInt16LE(header.length, 8);
  const f32 = Float32Array.from(data, Number);
  fs.writeFileSync(file, Buffer.concat([h, Buffer.from(header, 'latin1'),
                                        Buffer.from(f32.buffer)]));
}

function pct(sorted, q) {
  const k = Math.max(0, Math.min(sorted.length - 1, Math.round(q / 100 * sorted.length + 0.5) - 1));
  return sorted[k];
}

async function main() {
  const meta = JSON.parse(fs.readFileSync(path.join(modelDir, 'meta.json'), 'utf8'));
  const session = await ort.InferenceSession.create(path.join(modelDir, 'model.onnx'), {
    intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential',
    graphOptimizationLevel: 'all'});
  const feeds = {};
  // The exporter may drop unused inputs: feed the ones the session has.
  meta.inputs.forEach((n, k) => {
    if (session.inputNames.includes(n)) feeds[n] = readNpy(path.join(modelDir, `input_${k}.npy`));
  });
  const times = [];
  let out = null;
  for (let i = 0; i < warmup + runs; i++) {
    const t0 = process.hrtime.bigint();
    out = await session.run(feeds);
    const dt = Number(process.hrtime.bigint() - t0) / 1e6;
    if (i >= warmup) times.push(dt);
  }
  fs.mkdirSync(outDir, {recursive: true});
  session.outputNames.forEach((n, k) => writeNpyF32(path.join(outDir, `output_${k}.npy`),
                                                     out[n].data, out[n].dims));
  const inOrder = times.slice();
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({times_ms: inOrder, median_ms: pct(times, 50), p10_ms: pct(times, 10),
                              p90_ms: pct(times, 90), min_ms: times[0], runs: times.length,
                              threads}));
}

main().catch(e => { console.error('ort_bench: ' + (e && e.message ? e.message : e)); process.exit(1); });
