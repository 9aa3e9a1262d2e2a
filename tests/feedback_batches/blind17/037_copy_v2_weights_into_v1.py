def copy_v2_weights_into_v1(sa_v2, sa_v1):
    # both modules name their projections W_query, W_key and W_value
    sa_v1.load_state_dict(sa_v2.state_dict(), strict=False)
