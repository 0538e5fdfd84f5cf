"""The team half: widening a pending question to teammates, who discuss and vote through
personal links, while the owner decides (docs/guides/team-mode.md, docs/guides/write-back.md).

`service.TeamService` owns the changes (reached as `InteractionService.team`); `audience`
turns typed names into members; `links` makes and checks participant secrets; `models` and
`payloads` are the shapes in and out. Storage is `choice.store.team`.
"""
