"""Between-graph replicated MNIST training in the style of TF1's mnist_replica.py (written for
tensorweave's tests): variables on a parameter server through tf.train.replica_device_setter,
gradients aggregated by tf.train.SyncReplicasOptimizer, the session made by tf.train.Supervisor.

By default the program starts its own local cluster inside the process (one ps task and one
worker task on free 127.0.0.1 ports) and trains as worker 0, the chief; --local_session trains in
a plain local session instead; --ps_hosts/--worker_hosts with --job_name/--task_index run one task
of a real cluster.

    python mnist_replica.py --data_dir DIR [--train_steps 200] [--sync_replicas]

Prints `test accuracy: <float>` on its last line (the chief).
"""

import argparse
import socket
import sys
import tempfile

import tensorweave as tf
from tensorweave.examples.tutorials.mnist import input_data

FLAGS = None
IMAGE_PIXELS = 28


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def make_cluster():
    """(cluster, the servers this process keeps alive, task_index)."""
    if FLAGS.ps_hosts and FLAGS.worker_hosts:
        cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","), "worker": FLAGS.worker_hosts.split(",")})
        server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
        if FLAGS.job_name == "ps":
            server.join()
        return cluster, [server], FLAGS.task_index
    if FLAGS.local_session:
        return None, [], 0
    cluster = tf.train.ClusterSpec({"ps": ["127.0.0.1:%d" % free_port()],
                                    "worker": ["127.0.0.1:%d" % free_port()]})
    ps = tf.train.Server(cluster, job_name="ps", task_index=0)
    worker = tf.train.Server(cluster, job_name="worker", task_index=0)
    return cluster, [worker, ps], 0


def main(_):
    data = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
    cluster, servers, task_index = make_cluster()
    num_workers = len(cluster.job_tasks("worker")) if cluster else 1
    is_chief = task_index == 0
    replicas_to_aggregate = FLAGS.replicas_to_aggregate or num_workers

    worker_device = "/job:worker/task:%d/cpu:0" % task_index
    # Without a cluster (--local_session) the device setter is None: everything stays local.
    with tf.device(tf.train.replica_device_setter(worker_device=worker_device, ps_device="/job:ps/cpu:0",
                                                  cluster=cluster)):
        global_step = tf.Variable(0, name="global_step", trainable=False)
        n_in = IMAGE_PIXELS * IMAGE_PIXELS
        hid_w = tf.Variable(tf.truncated_normal([n_in, FLAGS.hidden_units], stddev=1.0 / IMAGE_PIXELS), name="hid_w")
        hid_b = tf.Variable(tf.zeros([FLAGS.hidden_units]), name="hid_b")
        sm_w = tf.Variable(tf.truncated_normal([FLAGS.hidden_units, 10], stddev=1.0 / FLAGS.hidden_units ** 0.5),
                           name="sm_w")
        sm_b = tf.Variable(tf.zeros([10]), name="sm_b")

        x = tf.placeholder(tf.float32, [None, n_in])
        y_ = tf.placeholder(tf.float32, [None, 10])
        hid = tf.nn.relu(tf.nn.xw_plus_b(x, hid_w, hid_b))
        y = tf.nn.softmax(tf.nn.xw_plus_b(hid, sm_w, sm_b))
        cross_entropy = -tf.reduce_mean(tf.reduce_sum(y_ * tf.log(tf.clip_by_value(y, 1e-10, 1.0)), axis=1))

        opt = tf.train.AdamOptimizer(FLAGS.learning_rate)
        if FLAGS.sync_replicas:
            opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=replicas_to_aggregate,
                                                 total_num_replicas=num_workers, name="mnist_sync_replicas")
        train_step = opt.minimize(cross_entropy, global_step=global_step)

        if FLAGS.sync_replicas:
            local_init_op = opt.chief_init_op if is_chief else opt.local_step_init_op
            ready_for_local_init_op = opt.ready_for_local_init_op
            chief_queue_runner = opt.get_chief_queue_runner()
            sync_init_op = opt.get_init_tokens_op()

        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1)), tf.float32))
        init_op = tf.global_variables_initializer()
        train_dir = tempfile.mkdtemp(prefix="mnist_replica_")
        if FLAGS.sync_replicas:
            sv = tf.train.Supervisor(is_chief=is_chief, logdir=train_dir, init_op=init_op,
                                     local_init_op=local_init_op, ready_for_local_init_op=ready_for_local_init_op,
                                     recovery_wait_secs=1, global_step=global_step, stop_grace_secs=5)
        else:
            sv = tf.train.Supervisor(is_chief=is_chief, logdir=train_dir, init_op=init_op, recovery_wait_secs=1,
                                     global_step=global_step, stop_grace_secs=5)

        config = None if cluster is None else tf.ConfigProto(
            allow_soft_placement=True, log_device_placement=False,
            device_filters=["/job:ps", "/job:worker/task:%d" % task_index])
        print("Worker %d: waiting for the session" % task_index)
        sess = sv.prepare_or_wait_for_session(servers[0].target if servers else "", config=config)
        print("Worker %d: session ready" % task_index)
        if FLAGS.sync_replicas and is_chief:
            sess.run(sync_init_op)
            sv.start_queue_runners(sess, [chief_queue_runner])

        local_step = 0
        while True:
            xs, ys = data.train.next_batch(FLAGS.batch_size)
            _, step = sess.run([train_step, global_step], feed_dict={x: xs, y_: ys})
            local_step += 1
            if local_step % 50 == 0:
                print("Worker %d: local step %d (global step %d)" % (task_index, local_step, step))
            if step >= FLAGS.train_steps:
                break

        acc = sess.run(accuracy, feed_dict={x: data.test.images, y_: data.test.labels})
        # The chief's queue runner may be blocked waiting for gradients that no worker will send:
        # ask the threads to stop, close the session (which cancels that step), then join them.
        sv.request_stop()
        sess.close()
        sv.stop()
    if is_chief:
        print("test accuracy: %g" % acc)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", type=str, default="/tmp/mnist-data")
    parser.add_argument("--job_name", type=str, default=None)
    parser.add_argument("--task_index", type=int, default=None)
    parser.add_argument("--ps_hosts", type=str, default="")
    parser.add_argument("--worker_hosts", type=str, default="")
    parser.add_argument("--hidden_units", type=int, default=64)
    parser.add_argument("--train_steps", type=int, default=200)
    parser.add_argument("--batch_size", type=int, default=100)
    parser.add_argument("--learning_rate", type=float, default=0.01)
    parser.add_argument("--sync_replicas", action="store_true")
    parser.add_argument("--local_session", action="store_true",
                        help="no cluster: one worker in a plain local session")
    parser.add_argument("--replicas_to_aggregate", type=int, default=None)
    FLAGS, unparsed = parser.parse_known_args()
    tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
