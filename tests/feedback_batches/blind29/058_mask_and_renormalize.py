def mask_and_renormalize(attn_weights):
    masked = torch.tril(attn_weights, diagonal=-1)
    return torch.softmax(masked, dim=-1)
