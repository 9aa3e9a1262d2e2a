import torch


def context_vector(attn_weights, inputs):
    weighted = inputs * attn_weights.unsqueeze(-1)  # (T, d), row j scaled by its weight
    slot = torch.zeros(weighted.shape[0], dtype=torch.long, device=inputs.device)
    total = torch.zeros(1, inputs.shape[1], dtype=inputs.dtype, device=inputs.device)
    return total.index_add(0, slot, weighted)[0]  # every row added into slot 0
