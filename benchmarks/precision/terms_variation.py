"""Run-to-run variation of the `jaxko terms` default report with N eflomal samplers.

    PYTHONPATH=tools python benchmarks/precision/terms_variation.py \
        .jaxko_cache/terms/<analysis>.json 16 2

Takes the tokens of one cached analysis of this project's catalogs (the file `jaxko
terms` left under .jaxko_cache/terms/), reruns only the eflomal alignment RUNS times
with SAMPLERS samplers, rebuilds the default report each time, and prints the
alignment's wall and CPU time and the drift lines that differ from the first run.
"""
import json, os, sys, tempfile, time, resource
from jaxko import glossary as g, paths
from jaxko.workflow import terms
from pathlib import Path
from eflomal import Aligner
cache = Path(sys.argv[1]); samplers = int(sys.argv[2]); runs = int(sys.argv[3])
catalogs = terms.catalogs_under([paths.catalogs_dir()])
pairs = terms.read_pairs(catalogs)
base = terms._from_json(pairs, json.loads(cache.read_text()))
gl = g.load(g.default_path())
usable = [i for i, a in enumerate(base) if a.words and a.morphs]
src = [" ".join(base[i].words) for i in usable]
trg = [" ".join(m.token for m in base[i].morphs) for i in usable]
reports = []
for run in range(runs):
    t0 = time.time(); c0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    with tempfile.TemporaryDirectory() as d:
        f, r = os.path.join(d, "f"), os.path.join(d, "r")
        Aligner(n_samplers=samplers).align(src, trg, links_filename_fwd=f, links_filename_rev=r, quiet=True)
        links = [terms._grow_diag(x, y) for x, y in zip(terms._read_links(f), terms._read_links(r))]
    wall = time.time() - t0; cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - c0
    for i, l in zip(usable, links):
        base[i].links = l
    rep = terms.build_report(base, gl, catalogs=len(catalogs))
    reports.append({r.term: tuple(sorted(v.key for v in r.variants)) for r in rep.drift})
    print(f"samplers {samplers} run {run}: align wall {wall:.1f}s cpu {cpu:.1f}s, {len(rep.drift)} drift lines", flush=True)
for i in range(1, runs):
    a, b = reports[0], reports[i]
    terms_diff = set(a) ^ set(b)
    rend_diff = [t for t in set(a) & set(b) if a[t] != b[t]]
    print(f"run 0 vs {i}: lines listed in one only {len(terms_diff)} {sorted(terms_diff)}; same line, other renderings {len(rend_diff)} {sorted(rend_diff)}")
