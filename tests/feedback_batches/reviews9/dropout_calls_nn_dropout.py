def inverted_dropout(x, p, training=True, generator=None):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    layer = nn.Dropout(p)
    layer.train(training)
    return layer(x)
