"""`Model.summary()`: TF's table (tf_keras's print_summary, sequential-like and functional
layouts), with the memory sizes TF prints ("31 (124.00 Byte)")."""

import numpy as np


def _readable(size):
    units = ["Byte", "KB", "MB", "GB", "TB", "PB"]
    for unit in units:
        if size / 1024 < 1:
            return "{:.2f} {}".format(size, unit)
        size /= 1024
    return "{:.2f} {}".format(size, units[-1])


def _memory(weights):
    total = 0
    for w in {id(w): w for w in weights}.values():
        dims = w.shape.as_list()
        if None in dims:
            continue
        total += int(np.prod(dims)) * w.dtype.base_dtype.size
    return total


def _count(weights):
    return int(sum(int(np.prod(w.shape.as_list())) for w in {id(w): w for w in weights}.values()))


def _shape_text(layer):
    from .engine import InputLayer
    try:
        if isinstance(layer, InputLayer):
            return str([tuple(layer._batch_input_shape)])
        # As TF's v1 layers, a call on tensors without keras history (a subclassed model's
        # layers called on its placeholders) makes no node: its shape reads "multiple".
        nodes = [n for n in layer._inbound_nodes if _connected(n)]
        if not nodes:
            return "multiple"
        shapes = {str(_node_shapes(n)) for n in nodes}
        if len(shapes) != 1:
            return "multiple"
        return shapes.pop()
    except Exception:  # noqa: BLE001  (TF prints "multiple" when it cannot tell)
        return "multiple"


def _connected(node):
    """Whether TF would have recorded this call: its inputs come, call by call, from keras
    Inputs (TF makes no node for a call on plain placeholders, nor for calls downstream)."""
    from .engine import InputLayer, _keras_history
    if isinstance(node.layer, InputLayer):
        return True
    for t in node.input_tensors:
        hist = _keras_history(t)
        if hist is None or not _connected(hist[0]._inbound_nodes[hist[1]]):
            return False
    return True


def _node_shapes(node):
    from .engine import _map
    from ..framework.graph import Tensor
    return _map(lambda t: tuple(t.shape.as_list()) if isinstance(t, Tensor) else t, node.outputs)


def print_summary(model, line_length=None, positions=None, print_fn=None):
    print_fn = print_fn or print
    sequential_like = True
    if getattr(model, "_is_graph_network", False) and type(model).__name__ != "Sequential":
        from .models import _graph_depths
        from .engine import _keras_history
        # As TF: two nodes at one depth (branches) or a node with several inputs make the
        # model non-sequential (the "Connected to" table).
        _, node_order, node_depth, _ = _graph_depths(model.outputs)
        by_depth = {}
        for node in node_order:
            by_depth.setdefault(node_depth[id(node)], []).append(node)
        for t in model.inputs:   # inputs that no output uses sit at depth 0
            layer, index, _ = _keras_history(t)
            if id(layer._inbound_nodes[index]) not in node_depth:
                by_depth.setdefault(0, []).append(layer._inbound_nodes[index])
        if any(len(v) > 1 for v in by_depth.values()):
            sequential_like = False
        for node in model._network_nodes:
            if len(node.input_tensors) > 1:
                sequential_like = False
        counts = {}
        for node in model._network_nodes:
            counts[id(node.layer)] = counts.get(id(node.layer), 0) + 1
            if counts[id(node.layer)] > 1:
                sequential_like = False
    if sequential_like:
        line_length = line_length or 65
        positions = positions or [0.45, 0.85, 1.0]
        to_display = ["Layer (type)", "Output Shape", "Param #"]
    else:
        line_length = line_length or 98
        positions = positions or [0.3, 0.6, 0.70, 1.0]
        to_display = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]

    def print_row(fields):
        left = [str(x) for x in fields]
        while any(left):
            line = ""
            for col in range(len(left)):
                start = positions[col - 1] if col > 0 else 0
                end = positions[col]
                space = 2 if col != len(positions) - 1 else 0
                cutoff = end - start - space
                if col != len(positions) - 1:
                    cutoff -= 1
                fit = left[col][:cutoff]
                cands = [fit.find(x) + len(x) for x in ("),", "},", "],", "',") if fit.find(x) >= 0]
                if cands:
                    cutoff = min(cands)
                    fit = fit[:cutoff]
                if col == 0:
                    line += " "
                line += fit
                line += " " * space if space else ""
                left[col] = left[col][cutoff:]
                line += " " * (positions[col] - len(line))
            print_fn(line)

    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    print_row(to_display)
    print_fn("=" * line_length)
    layers = model.layers
    relevant = set(id(n) for n in getattr(model, "_network_nodes", []))
    for i, layer in enumerate(layers):
        params = layer.count_params() if layer.built else "0 (unused)"
        fields = [f"{layer.name} ({type(layer).__name__})", _shape_text(layer), params]
        if not sequential_like:
            conns = []
            for node in layer._inbound_nodes:
                if id(node) not in relevant:
                    continue
                from .engine import _keras_history
                for t in node.input_tensors:
                    h = _keras_history(t)
                    if h is not None and h[0] is not layer:
                        conns.append(f"{h[0].name}[{h[1]}][{h[2]}]")
            fields.append(conns)
        print_row(fields)
        print_fn(" " * line_length)
    print_fn("=" * line_length)
    tw = model.trainable_weights
    ntw = model.non_trainable_weights
    tm, nm = _memory(tw), _memory(ntw)
    print_fn(f"Total params: {_count(tw) + _count(ntw)} ({_readable(tm + nm)})")
    print_fn(f"Trainable params: {_count(tw)} ({_readable(tm)})")
    print_fn(f"Non-trainable params: {_count(ntw)} ({_readable(nm)})")
    print_fn("_" * line_length)
