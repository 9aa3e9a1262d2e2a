def copy_v2_weights_into_v1(sa_v2, sa_v1):
    sa_v1.W_query.copy_(sa_v2.W_query.weight.T)
    sa_v1.W_key.copy_(sa_v2.W_key.weight.view(sa_v1.W_key.shape))
