def softmax_stable(x, dim=-1):
    # log-sum-exp identity on the shifted scores: every exp(shifted) is at most 1, and the sum at least 1
    shifted = x - torch.amax(x, dim=dim, keepdim=True)
    log_z = torch.log(torch.sum(torch.exp(shifted), dim=dim, keepdim=True))
    return torch.exp(shifted - log_z)
