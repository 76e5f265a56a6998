"""Distributed training of the digits classifier with parameter servers, in the style of TF1's
classic mnist_replica.py (between-graph replication: every worker builds the same graph; the
variables live on the ps tasks through tf.train.replica_device_setter).

Run a local cluster of 1 ps and 2 workers:

    tensorweave cluster --ps 1 --workers 2 -- python examples/distributed_mnist.py --sync_replicas
    tensorweave cluster --ps 1 --workers 2 -- python examples/distributed_mnist.py \\
        --sync_replicas --replicas_to_aggregate 1          # one backup worker
    tensorweave cluster --ps 1 --workers 2 -- python examples/distributed_mnist.py   # asynchronous

(the launcher sets TF_CONFIG for each task), or start each task yourself:

    python examples/distributed_mnist.py --job_name ps --task_index 0 \\
        --ps_hosts 127.0.0.1:2222 --worker_hosts 127.0.0.1:2223,127.0.0.1:2224
    python examples/distributed_mnist.py --job_name worker --task_index 0 ...   # and task 1

With --sync_replicas the gradients of `replicas_to_aggregate` workers (default: all) are averaged
into each update (tf.train.SyncReplicasOptimizer); with fewer than the number of workers, the
others are backup workers whose late gradients are dropped. Without it each worker updates the
ps variables on its own (asynchronous training). Worker 0 is the chief: it initializes the model
and prints the held-out accuracy at the end.
"""

import argparse
import sys
import time

import numpy as np

import tensorweave as tf
from tensorweave.datasets import load_digits, train_test_split
from tensorweave.distributed import cluster_from_env

HIDDEN_UNITS = 100


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--job_name", default=None, help="ps or worker (default: from TF_CONFIG)")
    p.add_argument("--task_index", type=int, default=None, help="index of the task in its job")
    p.add_argument("--ps_hosts", default="", help="comma-separated host:port list")
    p.add_argument("--worker_hosts", default="", help="comma-separated host:port list")
    p.add_argument("--sync_replicas", action="store_true", help="synchronous training (SyncReplicasOptimizer)")
    p.add_argument("--replicas_to_aggregate", type=int, default=None,
                   help="gradients averaged per update (default: the number of workers)")
    p.add_argument("--train_steps", type=int, default=400, help="global steps to train")
    p.add_argument("--batch_size", type=int, default=64)
    p.add_argument("--learning_rate", type=float, default=0.2)
    p.add_argument("--use_locking", action="store_true", help="lock the variables during updates")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--stop_grace_period_secs", type=float, default=3.0,
                   help="how long the chief waits for its queue-runner thread when training ends")
    return p.parse_args(argv)


def cluster_and_task(args):
    if args.ps_hosts or args.worker_hosts:
        cluster = tf.train.ClusterSpec({"ps": args.ps_hosts.split(","), "worker": args.worker_hosts.split(",")})
        return cluster, args.job_name, args.task_index
    cluster, job_name, task_index = cluster_from_env()
    if not cluster.jobs:
        raise SystemExit("no cluster: pass --ps_hosts/--worker_hosts/--job_name/--task_index, or run under "
                         "`tensorweave cluster` (TF_CONFIG)")
    return cluster, args.job_name or job_name, task_index if args.task_index is None else args.task_index


def build_model(images, labels, num_pixels):
    """64-100-10 ReLU network; returns (loss, accuracy)."""
    hid_w = tf.get_variable("hid_w", [num_pixels, HIDDEN_UNITS],
                            initializer=tf.truncated_normal_initializer(stddev=1.0 / np.sqrt(num_pixels)))
    hid_b = tf.get_variable("hid_b", [HIDDEN_UNITS], initializer=tf.zeros_initializer())
    sm_w = tf.get_variable("sm_w", [HIDDEN_UNITS, 10],
                           initializer=tf.truncated_normal_initializer(stddev=1.0 / np.sqrt(HIDDEN_UNITS)))
    sm_b = tf.get_variable("sm_b", [10], initializer=tf.zeros_initializer())
    hid = tf.nn.relu(tf.nn.xw_plus_b(images, hid_w, hid_b))
    logits = tf.nn.xw_plus_b(hid, sm_w, sm_b)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))
    return loss, accuracy


def wait_for_chief(target, timeout=120.0):
    """Non-chief workers: wait (polling every 0.1 s) until the chief has initialized the model.
    MonitoredTrainingSession would wait too, but re-checks only every 30 s (TF's default)."""
    ready = tf.report_uninitialized_variables(tf.global_variables())
    deadline = time.time() + timeout
    with tf.Session(target) as sess:
        while len(sess.run(ready)) and time.time() < deadline:
            time.sleep(0.1)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    cluster, job_name, task_index = cluster_and_task(args)
    if job_name not in ("ps", "worker") or task_index is None:
        raise SystemExit("--job_name must be ps or worker, and --task_index given")
    server = tf.train.Server(cluster, job_name=job_name, task_index=task_index)
    if job_name == "ps":
        server.join()
        return 0

    num_workers = cluster.num_tasks("worker")
    is_chief = task_index == 0
    images, labels = load_digits()
    (x_train, y_train), (x_test, y_test) = train_test_split(images, labels, test_fraction=0.2, seed=args.seed)

    tf.set_random_seed(args.seed)
    worker_device = f"/job:worker/task:{task_index}"
    with tf.device(tf.train.replica_device_setter(worker_device=worker_device, ps_device="/job:ps",
                                                  cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, x_train.shape[1]], name="images")
        y = tf.placeholder(tf.int64, [None], name="labels")
        loss, accuracy = build_model(x, y, x_train.shape[1])
        opt = tf.train.GradientDescentOptimizer(args.learning_rate, use_locking=args.use_locking)
        hooks = [tf.train.StopAtStepHook(last_step=args.train_steps)]
        if args.sync_replicas:
            replicas_to_aggregate = args.replicas_to_aggregate or num_workers
            opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=replicas_to_aggregate,
                                                 total_num_replicas=num_workers, name="mnist_sync_replicas")
            sync_hook = opt.make_session_run_hook(is_chief)
            hooks.append(sync_hook)
        train_op = opt.minimize(loss, global_step=global_step)

    final = tf.train.FinalOpsHook([accuracy, loss], final_ops_feed_dict={x: x_test, y: y_test})
    chief_only = [final]
    mode = ("sync, %d of %d workers aggregated" % (opt._replicas_to_aggregate, num_workers)
            if args.sync_replicas else "async")
    print(f"worker {task_index}: {mode}, {args.train_steps} global steps", flush=True)

    if not is_chief:
        wait_for_chief(server.target)
    rng = np.random.RandomState(args.seed + 1000 * task_index)
    local_steps = 0
    start = time.time()
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief, hooks=hooks,
                                           chief_only_hooks=chief_only, save_checkpoint_secs=None,
                                           save_summaries_steps=None, log_step_count_steps=0,
                                           stop_grace_period_secs=args.stop_grace_period_secs) as sess:
        step = 0
        while not sess.should_stop():
            batch = rng.randint(0, len(x_train), args.batch_size)
            _, step = sess.run([train_op, global_step], feed_dict={x: x_train[batch], y: y_train[batch]})
            local_steps += 1
            if local_steps % 100 == 0:
                print(f"worker {task_index}: local step {local_steps}, global step {step}", flush=True)
    elapsed = time.time() - start
    print(f"worker {task_index}: done, {local_steps} local steps in {elapsed:.1f} s", flush=True)
    if args.sync_replicas and sync_hook.stale_gradients is not None:
        print(f"worker {task_index}: stale gradients dropped (all workers): {sync_hook.stale_gradients}", flush=True)
    if is_chief and final.final_ops_values is not None:
        acc, test_loss = final.final_ops_values
        print(f"test accuracy: {acc:.4f} (loss {test_loss:.4f}) on {len(x_test)} held-out digits", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
