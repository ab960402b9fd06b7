# Ctrl-C (SIGINT) stops a long run from Python after its chunk: KeyboardInterrupt, the checkpoint
# written where it stopped, and the simulation able to go on.
import os
import signal
import subprocess
import sys
import textwrap
import time

SCRIPT = textwrap.dedent("""
    import sys, cellgraph as cg
    graph = cg.Graph.grid((512, 512))
    sim = cg.Simulation(graph, seed=1, backend="cpu", threads=1)
    sim.set_state(cg.random_cells(graph, density=0.5, seed=1))
    print("running", flush=True)
    try:
        sim.run(10_000_000, checkpoint=sys.argv[1])
    except KeyboardInterrupt:
        stopped = sim.step
        print("stopped", stopped, flush=True)
        again = cg.Simulation(graph, seed=1, backend="cpu", threads=1)
        again.load_checkpoint(sys.argv[1])
        assert again.step == stopped, (again.step, stopped)
        sim.run(3)
        print("continued", sim.step, flush=True)
""")


def test_ctrl_c_stops_a_long_run_cleanly(tmp_path):
    checkpoint = tmp_path / "stop.ckpt"
    child = subprocess.Popen([sys.executable, "-c", SCRIPT, str(checkpoint)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=os.environ)
    assert child.stdout.readline().strip() == "running"
    time.sleep(1.5)
    started = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert time.monotonic() - started < 20
    lines = out.split()
    stopped = int(lines[lines.index("stopped") + 1])
    assert 0 < stopped < 10_000_000
    assert int(lines[lines.index("continued") + 1]) == stopped + 3
    assert checkpoint.exists() and not list(tmp_path.glob("*.tmp.*"))
