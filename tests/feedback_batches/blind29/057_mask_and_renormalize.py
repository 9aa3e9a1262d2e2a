def mask_and_renormalize(attn_weights):
    keep = torch.ones_like(attn_weights).tril()  # 1 on and below the diagonal, any leading dims
    masked = attn_weights * keep
    # the weights are non-negative, so each row's L1 norm is its sum
    return masked / torch.linalg.vector_norm(masked, ord=1, dim=-1, keepdim=True)
