import Shared

Workbook.main(step: StepInfo.name, summary: StepInfo.summary, makeApp: StepInfo.makeApp)
