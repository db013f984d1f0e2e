import Shared

Workbook.main(
    step: StepInfo.name, summary: StepInfo.summary, techniques: StepInfo.techniques,
    makeApp: StepInfo.makeApp)
