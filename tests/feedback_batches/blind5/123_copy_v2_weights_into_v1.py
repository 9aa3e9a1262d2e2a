def copy_v2_weights_into_v1(sa_v2, sa_v1):
    """Exercise 3.1 via state dicts: 'W_query.weight' (d_out, d_in) -> 'W_query' (d_in, d_out)."""
    translated = {name.removesuffix(".weight"): tensor.T for name, tensor in sa_v2.state_dict().items()}
    sa_v1.load_state_dict(translated)
