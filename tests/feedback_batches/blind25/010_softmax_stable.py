def softmax_stable(x, dim=-1):
    # log-sum-exp by hand: softmax(x) = exp(z - log(sum(exp(z)))) with z = x - max(x)
    shifted = x - x.amax(dim=dim, keepdim=True)
    log_denominator = torch.log(torch.exp(shifted).sum(dim=dim, keepdim=True))
    return torch.exp(shifted - log_denominator)
