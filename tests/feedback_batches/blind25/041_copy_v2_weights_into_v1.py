def copy_v2_weights_into_v1(sa_v2, sa_v1):
    # nn.Linear keeps weight as (d_out, d_in) and computes x A^T, so W = A^T
    v2_state = sa_v2.state_dict()
    sa_v1.load_state_dict({name: v2_state[f"{name}.weight"].T for name in ("W_query", "W_key", "W_value")})
