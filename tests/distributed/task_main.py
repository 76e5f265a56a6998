"""A task process for the distributed tests (run as a script, never imported by pytest).

    python task_main.py serve CLUSTER_JSON JOB INDEX
        start a Server for the task, print READY, serve until killed
    python task_main.py replica CLUSTER_JSON INDEX STEPS
        worker INDEX: a Server of its own and a session on it; STEPS times add 1 to the ps's
        variable "counter" (between-graph replication); prints DONE
"""

import json
import sys


def main(argv):
    import tensorweave as tf
    mode, cluster = argv[1], json.loads(argv[2])
    if mode == "serve":
        server = tf.train.Server(cluster, job_name=argv[3], task_index=int(argv[4]))
        print("READY", flush=True)
        server.join()
        return 0
    if mode == "replica":
        index, steps = int(argv[3]), int(argv[4])
        server = tf.train.Server(cluster, job_name="worker", task_index=index)
        with tf.device("/job:ps/task:0"):
            counter = tf.get_variable("counter", [], initializer=tf.zeros_initializer())
        with tf.device(f"/job:worker/task:{index}"):
            one = tf.constant(1.0) * tf.constant(1.0)
        inc = tf.assign_add(counter, one, use_locking=True)
        with tf.Session(server.target) as sess:
            for _ in range(steps):
                sess.run(inc.op)
        print("DONE", flush=True)
        return 0
    raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
