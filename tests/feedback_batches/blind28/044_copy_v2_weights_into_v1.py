def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query = sa_v2.W_query.weight.T
    sa_v1.W_key = sa_v2.W_key.weight.T
