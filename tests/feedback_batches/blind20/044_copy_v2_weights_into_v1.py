def copy_v2_weights_into_v1(sa_v2, sa_v1):
    for name in ("W_query", "W_key", "W_value"):
        target = getattr(sa_v1, name)
        source = getattr(sa_v2, name).weight
        # detach() shares the parameter's storage, so copy_ writes into sa_v1's own parameter
        target.detach().copy_(source.detach().mT)
