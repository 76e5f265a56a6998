"""Confusion-matrix metrics (Precision, Recall, counts, AUC, MeanIoU) and the mean-of-function
metrics against values recorded from TF 2.21's legacy keras, and against NumPy counts."""

import numpy as np

import tensorweave as tf

M = tf.keras.metrics
YT = np.array([[0], [1], [1], [0], [1], [0]], "float32")
YP = np.array([[0.1], [0.8], [0.4], [0.6], [0.9], [0.3]], "float32")
SW = np.array([1., 2., 1., 0.5, 1., 1.], "float32")


def _run(metric, *args, **kwargs):
    r = metric(*args, **kwargs)
    sess = tf.keras.backend.get_session()
    sess.run(tf.variables_initializer(metric.variables))
    return sess.run(r)


def test_precision_recall_names_and_values():
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    p, r = M.Precision(), M.Recall()
    # Recorded from TF 2.21: variable names, metric names and values.
    assert [v.name for v in p.variables] == ["true_positives:0", "false_positives:0"]
    assert [v.name for v in r.variables] == ["true_positives_1:0", "false_negatives:0"]
    np.testing.assert_allclose(_run(p, YT, YP), 2 / 3, rtol=1e-6)
    np.testing.assert_allclose(_run(r, YT, YP), 2 / 3, rtol=1e-6)
    p3 = M.Precision(thresholds=[0.3, 0.5, 0.7])
    assert p3.name == "precision_1"
    np.testing.assert_allclose(_run(p3, YT, YP, sample_weight=SW), [4 / 4.5, 3 / 3.5, 1.0],
                               rtol=1e-6)
    assert p.get_config() == {"name": "precision", "dtype": "float32", "thresholds": None,
                              "top_k": None, "class_id": None}


def test_counts_match_numpy():
    tf.reset_default_graph()
    thresholds = [0.2, 0.5]
    for cls, fn in [(M.TruePositives, lambda t, p: t & p), (M.FalsePositives, lambda t, p: ~t & p),
                    (M.TrueNegatives, lambda t, p: ~t & ~p),
                    (M.FalseNegatives, lambda t, p: t & ~p)]:
        got = _run(cls(thresholds=thresholds), YT, YP, sample_weight=SW)
        want = [np.sum(SW[:, None] * fn(YT > 0, YP > th)) for th in thresholds]
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_auc_values_recorded_from_tf():
    tf.reset_default_graph()
    np.testing.assert_allclose(_run(M.AUC(), YT, YP), 0.88889, atol=1e-5)
    np.testing.assert_allclose(_run(M.AUC(curve="PR"), YT, YP), 0.90411, atol=1e-5)
    np.testing.assert_allclose(_run(M.AUC(curve="PR", summation_method="majoring"), YT, YP),
                               0.91667, atol=1e-5)
    a = M.AUC(num_thresholds=10)
    assert [v.shape.as_list() for v in a.variables] == [[10]] * 4
    np.testing.assert_allclose(_run(a, YT, YP, sample_weight=SW), 0.95, atol=1e-5)


def test_top_k_class_id_and_mean_iou():
    tf.reset_default_graph()
    yk = np.array([[0, 0, 1], [0, 1, 0]], "float32")
    pk = np.array([[0.1, 0.5, 0.4], [0.05, 0.95, 0.0]], "float32")
    assert _run(M.Precision(top_k=1), yk, pk) == 0.5     # recorded from TF 2.21
    assert _run(M.Recall(class_id=2), yk, pk) == 0.0
    iou = M.MeanIoU(num_classes=3)
    assert iou.name == "mean_io_u" and iou.variables[0].name == "total_confusion_matrix:0"
    got = _run(iou, np.array([0, 1, 2, 1]), np.array([0, 2, 2, 1]))
    np.testing.assert_allclose(got, (1 + 0.5 + 0.5) / 3, rtol=1e-6)


def test_mean_function_metrics_recorded_from_tf():
    tf.reset_default_graph()
    yk = np.array([[0, 0, 1], [0, 1, 0]], "float32")
    pk = np.array([[0.1, 0.5, 0.4], [0.05, 0.95, 0.0]], "float32")
    for cls, want in [("Hinge", 0.88333), ("SquaredHinge", 0.9875), ("LogCoshError", 0.04962),
                      ("CosineSimilarity", 0.80792), ("CategoricalHinge", 0.6),
                      ("KLDivergence", 0.48379), ("Poisson", 0.4946)]:
        np.testing.assert_allclose(_run(getattr(M, cls)(), yk, pk), want, atol=1e-5)


def test_metrics_in_fit_history():
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    rng = np.random.RandomState(1)
    x = rng.rand(40, 3).astype("float32")
    y = (x.sum(1) > 1.5).astype("float32").reshape(-1, 1)
    m = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(3,))])
    m.compile("sgd", "binary_crossentropy", metrics=[M.Precision(), M.AUC()])
    h = m.fit(x, y, batch_size=10, epochs=1, verbose=0)
    assert m.metrics_names == ["loss", "precision", "auc"]
    assert sorted(h.history) == ["auc", "loss", "precision"]
    assert 0.0 <= h.history["auc"][0] <= 1.0
